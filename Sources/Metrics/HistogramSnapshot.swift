/// A histogram's counts at one moment: per bucket (not cumulative; the exposition adds
/// them up), and the sum of what was observed, in the observed unit.
public struct HistogramSnapshot: Sendable, Equatable {
    /// One per bucket of its `HistogramBuckets`, the `+Inf` bucket's own last.
    public var counts: [UInt64]
    public var sum: UInt64

    public init(counts: [UInt64], sum: UInt64) {
        self.counts = counts
        self.sum = sum
    }

    /// Nothing observed, in `bucketCount` buckets (`+Inf` included).
    public init(bucketCount: Int) {
        self.init(counts: Array(repeating: 0, count: bucketCount), sum: 0)
    }

    /// Every observation: the `+Inf` bucket's cumulative count and `_count`, one number.
    public var count: UInt64 { counts.reduce(0, &+) }

    /// Adds another snapshot of the same buckets (another event loop's).
    public mutating func add(_ other: HistogramSnapshot) {
        precondition(other.counts.count == counts.count, "snapshots of different buckets")
        for index in counts.indices { counts[index] &+= other.counts[index] }
        sum &+= other.sum
    }
}
