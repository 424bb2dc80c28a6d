import Metrics

/// How the store's write commits go, for `/metrics`: how many writes each commit
/// carries (SQLite's group commit gathers every write queued while the previous one
/// committed; a PostgreSQL commit carries one) and how long each takes, from `BEGIN`
/// to a durable `COMMIT` (on SQLite, its fsync). Observed by the committing thread, read
/// by a scrape: two `Histogram`s of relaxed atomics, no lock.
public final class CommitMetrics: Sendable {
    /// Writes per commit: 1 when idle, up to the writes of one fsync's time under load.
    public static let sizeBuckets = HistogramBuckets(bounds: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024])
    /// An fsync takes from tens of microseconds (a battery-backed cache) to tens of
    /// milliseconds (a busy disk); past a second writers queue visibly.
    public static let durationBuckets = HistogramBuckets.durations(nanoseconds: [
        50_000, 100_000, 250_000, 500_000, 1_000_000, 2_500_000, 5_000_000, 10_000_000, 25_000_000, 50_000_000,
        100_000_000, 250_000_000, 500_000_000, 1_000_000_000, 2_500_000_000,
    ])

    public let sizes = Histogram(buckets: CommitMetrics.sizeBuckets)
    public let durations = Histogram(buckets: CommitMetrics.durationBuckets)

    public init() {}

    /// Counts one commit of `writes` writes that took `nanoseconds`.
    func observe(writes: Int, nanoseconds: UInt64) {
        sizes.observe(UInt64(writes))
        durations.observe(nanoseconds)
    }
}
