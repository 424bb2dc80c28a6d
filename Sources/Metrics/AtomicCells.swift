import Synchronization

/// `count` zeroed `UInt64` counters, each an `Atomic` at a stable address, owned by
/// this value and freed with it: the storage under `SingleWriterCounters`,
/// `SingleWriterCounterTable`'s rows and `Histogram`. A `~Copyable` struct, so the
/// class that holds it reaches the counters through one pointer of its own.
struct AtomicCells: ~Copyable {
    let base: UnsafeMutablePointer<Atomic<UInt64>>
    let count: Int

    init(count: Int) {
        base = Self.allocate(count)
        self.count = count
    }

    deinit {
        Self.free(base, count: count)
    }

    /// `count` zeroed counters that the caller frees with `free(_:count:)`.
    static func allocate(_ count: Int) -> UnsafeMutablePointer<Atomic<UInt64>> {
        let cells = UnsafeMutablePointer<Atomic<UInt64>>.allocate(capacity: max(count, 1))
        for index in 0..<count { (cells + index).initialize(to: Atomic(0)) }
        return cells
    }

    static func free(_ cells: UnsafeMutablePointer<Atomic<UInt64>>, count: Int) {
        cells.deinitialize(count: count)
        cells.deallocate()
    }
}
