/// Many small precomputed JSON fragments stored back to back in one byte array and
/// addressed by index: one allocation for all of them instead of one array each,
/// and appending one to a body is a single `memcpy` with no reference counting.
///
/// `Sendable`: immutable after `init`.
struct CatalogJSONArena: Sendable {
    private let bytes: [UInt8]
    /// Where fragment `i` ends; it starts where fragment `i - 1` ends (0 for the first).
    private let ends: [Int32]

    /// Encodes fragments `0..<count`, each into a fresh writer handed to `encode`.
    /// - Parameter estimatedSize: a typical fragment's size, to reserve the storage once.
    init(count: Int, estimatedSize: Int, encode: (Int, inout JSONWriter) -> Void) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count * estimatedSize)
        var ends: [Int32] = []
        ends.reserveCapacity(count)
        for index in 0..<count {
            var writer = JSONWriter(reservingCapacity: estimatedSize)
            encode(index, &writer)
            bytes.append(contentsOf: writer.bytes)
            precondition(bytes.count <= Int(Int32.max), "a JSON arena holds at most 2 GiB")
            ends.append(Int32(bytes.count))
        }
        self.bytes = bytes
        self.ends = ends
    }

    /// Fragment `index` as its own array.
    func fragment(_ index: Int) -> [UInt8] {
        Array(bytes[start(index)..<Int(ends[index])])
    }

    /// Appends fragment `index` to `body`.
    func append(_ index: Int, to body: inout [UInt8]) {
        append(start(index)..<Int(ends[index]), to: &body)
    }

    /// Appends the bytes `part` (offsets relative to the fragment's start) of fragment `index`.
    func append(_ index: Int, part: Range<Int>, to body: inout [UInt8]) {
        let start = start(index)
        append((start + part.lowerBound)..<(start + part.upperBound), to: &body)
    }

    private func start(_ index: Int) -> Int {
        index == 0 ? 0 : Int(ends[index - 1])
    }

    private func append(_ range: Range<Int>, to body: inout [UInt8]) {
        bytes.withUnsafeBufferPointer { all in
            body.append(contentsOf: UnsafeBufferPointer(rebasing: all[range]))
        }
    }
}
