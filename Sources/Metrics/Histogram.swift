import Synchronization

/// Observations counted into fixed buckets, from any thread at once: for what happens
/// far less often than requests (a group commit, a commit on PostgreSQL). Each
/// observation is two relaxed atomic adds (its bucket and the sum), no lock. The
/// per-request histograms of the event loops are `SingleWriterCounters` instead.
public final class Histogram: @unchecked Sendable {
    public let buckets: HistogramBuckets
    /// One counter per bucket (the last the `+Inf` bucket's own), then the sum.
    private let cells: AtomicCells

    public init(buckets: HistogramBuckets) {
        self.buckets = buckets
        cells = AtomicCells(count: buckets.count + 1)
    }

    /// Counts `value` (in the buckets' unit: nanoseconds, writes).
    public func observe(_ value: UInt64) {
        cells.base[buckets.index(of: value)].add(1, ordering: .relaxed)
        cells.base[buckets.count].add(value, ordering: .relaxed)
    }

    /// What has been observed so far.
    public var snapshot: HistogramSnapshot {
        HistogramSnapshot(
            counts: (0..<buckets.count).map { cells.base[$0].load(ordering: .relaxed) },
            sum: cells.base[buckets.count].load(ordering: .relaxed))
    }
}
