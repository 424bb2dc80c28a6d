import Synchronization

/// A table of counters, `rowCount` rows of `columnCount`, that one thread adds to and
/// any thread reads, as `SingleWriterCounters` (see there why: no lock, no atomic
/// read-modify-write). A row is allocated the first time one of its counters is added
/// to, so a table whose rows are the combinations that might happen (every route times
/// every method, `HTTPServer`) holds only those that did.
///
/// A new row is published with a releasing store of its pointer after its counters are
/// zeroed, and read with an acquiring load: a reader that sees the row sees it zeroed.
/// The rows live until the table goes (a reader holds the table, so never a freed row).
///
/// `@unchecked Sendable`: shared read-only but for the atomics, written by one thread.
public final class SingleWriterCounterTable: @unchecked Sendable {
    public let rowCount: Int
    public let columnCount: Int
    private let rows: UnsafeMutablePointer<Atomic<UnsafeMutablePointer<Atomic<UInt64>>?>>

    public init(rows rowCount: Int, columns columnCount: Int) {
        self.rowCount = rowCount
        self.columnCount = columnCount
        rows = .allocate(capacity: max(rowCount, 1))
        for index in 0..<rowCount { (rows + index).initialize(to: Atomic(nil)) }
    }

    deinit {
        for index in 0..<rowCount {
            if let row = rows[index].load(ordering: .acquiring) { AtomicCells.free(row, count: columnCount) }
        }
        rows.deinitialize(count: rowCount)
        rows.deallocate()
    }

    /// Adds one to counter `column` of `row`; only ever from the one thread that owns the table.
    @inline(__always)
    public func increment(row: Int, column: Int) {
        // The owner's own store: relaxed is enough to read it back.
        let cells = rows[row].load(ordering: .relaxed) ?? allocateRow(row)
        let cell = cells + column
        cell.pointee.store(cell.pointee.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
    }

    @inline(never)
    private func allocateRow(_ row: Int) -> UnsafeMutablePointer<Atomic<UInt64>> {
        let cells = AtomicCells.allocate(columnCount)
        rows[row].store(cells, ordering: .releasing)
        return cells
    }

    /// The counters of `row`, nil when none of them was ever added to; from any thread.
    public func row(_ row: Int) -> [UInt64]? {
        guard let cells = rows[row].load(ordering: .acquiring) else { return nil }
        return (0..<columnCount).map { cells[$0].load(ordering: .relaxed) }
    }
}
