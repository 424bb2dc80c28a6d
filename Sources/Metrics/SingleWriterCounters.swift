import Synchronization

/// A fixed number of counters that one thread adds to and any thread reads, without a
/// lock and without an atomic read-modify-write: what an event loop counts its requests
/// in (`HTTPServer`), one instance per loop, merged when scraped.
///
/// Why this way: the hot path (one increment per request) must cost about nothing.
/// A lock per request would serialize the loops; a shared atomic counter, even with
/// relaxed ordering, makes every loop's core fight for one cache line, and its locked
/// `add` costs some 20 cycles even alone. Here each counter has one writer, so an
/// increment is a relaxed atomic load and a relaxed atomic store of the sum: on x86-64
/// and arm64 both are plain moves (`incq` on memory, no `lock` prefix), yet they are
/// atomic, so a scrape on another thread reads a value that was really there, never a
/// torn one, and the Swift memory model has no data race (plain fields read from
/// another thread would be one, whatever the hardware does). A reader may see a count a
/// moment old; relaxed ordering promises nothing between two counters (a bucket and
/// the sum of one histogram may disagree by the request in flight), which the text
/// format tolerates, and `HistogramSnapshot` takes `_count` from the buckets it read,
/// so `_count` always equals the `+Inf` bucket.
///
/// The single writer is the caller's promise: two threads calling `add` on one instance
/// would lose counts (never memory safety). `@unchecked Sendable`: the storage is a
/// pointer to atomics, shared read-only but for those atomics.
public final class SingleWriterCounters: @unchecked Sendable {
    private let cells: AtomicCells

    public init(count: Int) {
        cells = AtomicCells(count: count)
    }

    public var count: Int { cells.count }

    /// Adds `amount` to counter `index`; only ever from the one thread that owns the counters.
    @inline(__always)
    public func add(_ amount: UInt64, at index: Int) {
        let cell = cells.base + index
        cell.pointee.store(cell.pointee.load(ordering: .relaxed) &+ amount, ordering: .relaxed)
    }

    /// The counter's value; from any thread.
    public func value(at index: Int) -> UInt64 {
        cells.base[index].load(ordering: .relaxed)
    }
}
