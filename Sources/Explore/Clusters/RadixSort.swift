/// A stable least-significant-digit radix sort of indices by integer keys: linear
/// time, no comparison closure. The grids sort every location at each of 23 zoom
/// levels at start, where a comparison sort of tuples was most of the start-up cost
/// of clustering (and far more in debug builds, which every test server is).
enum RadixSort {
    /// Bits sorted per pass: a 2,048-entry count table stays in the L1 cache.
    private static let digitBits = 11

    /// The indices of `keys`, ordered by key and, among equal keys, by index.
    /// - Parameter bits: how many low bits of the keys can be non-zero.
    static func order(of keys: [UInt64], bits: Int) -> [Int32] {
        precondition(keys.count <= Int(Int32.max), "too many keys for Int32 indices")
        var order = (0..<Int32(keys.count)).map { $0 }
        var next = order
        var counts = [Int](repeating: 0, count: 1 << digitBits)
        let mask = UInt64(1 << digitBits - 1)
        var shift = 0
        while shift < bits {
            for index in counts.indices { counts[index] = 0 }
            for key in keys { counts[Int(key >> UInt64(shift) & mask)] += 1 }
            var start = 0
            for digit in counts.indices {
                let count = counts[digit]
                counts[digit] = start
                start += count
            }
            for index in order {
                let digit = Int(keys[Int(index)] >> UInt64(shift) & mask)
                next[counts[digit]] = index
                counts[digit] += 1
            }
            swap(&order, &next)
            shift += digitBits
        }
        return order
    }
}
