/// The catalog's locations grouped by the cells of one zoom level, with every
/// non-empty cell summed up unfiltered, so a query over whole cells only reads
/// those sums.
///
/// Cells are kept in (column, row) order: the cells of a column range and row range
/// are found by one binary search per column that has any.
///
/// `Sendable`: immutable after `init`.
public struct ClusterGrid: Sendable {
    /// Every non-empty cell's unfiltered cluster, in (column, row) order.
    public let cells: [Cluster]
    /// Each cell's box around its locations (the bounds of `cells`), apart and compact:
    /// a query tests hundreds of them.
    let boxes: [CellBox]
    /// Each cell's `column << rowBits | row`, ascending.
    private let keys: [UInt64]
    /// The bits of a row at this zoom: `zoom + 2`.
    private let rowBits: Int
    /// Where each cell's locations start in `members`; one more entry ends the last.
    private let starts: [Int32]
    /// Location indices, cell by cell, ascending within a cell (the radix sort is stable).
    private let members: [Int32]
    /// The cells in the order of their unfiltered clusters: `photoCount` descending,
    /// then representative. A query that finds whole cells marks their ranks and
    /// reads them back in order, with no sort.
    public let ranked: [Int32]
    /// Each cell's position in `ranked`.
    let ranks: [Int32]

    /// - Parameter finest: every location's cell at `MercatorCell.zooms.upperBound`.
    init(zoom: Int, finest: [MercatorCell], locations: ClusterLocations, orderKey: ClusterOrderKey) {
        rowBits = zoom + 2
        let levels = MercatorCell.zooms.upperBound - zoom
        let locationKeys = finest.map { Self.key($0.coarsened(by: levels), rowBits: zoom + 2) }
        members = RadixSort.order(of: locationKeys, bits: 2 * rowBits)
        var keys: [UInt64] = []
        var starts: [Int32] = []
        for (offset, location) in members.enumerated() where keys.last != locationKeys[Int(location)] {
            keys.append(locationKeys[Int(location)])
            starts.append(Int32(offset))
        }
        starts.append(Int32(members.count))
        self.keys = keys
        self.starts = starts
        var cells: [Cluster] = []
        cells.reserveCapacity(keys.count)
        for cell in keys.indices {
            // A cell is never empty, and without a query every location counts.
            cells.append(locations.cluster(of: members[Int(starts[cell])..<Int(starts[cell + 1])], in: nil)!)
        }
        self.cells = cells
        boxes = cells.map { CellBox(south: $0.south, west: $0.west, north: $0.north, east: $0.east) }
        ranked = RadixSort.order(of: cells.map { orderKey.key($0, match: 0) }, bits: orderKey.bits)
        var ranks = [Int32](repeating: 0, count: cells.count)
        for (rank, cell) in ranked.enumerated() { ranks[Int(cell)] = Int32(rank) }
        self.ranks = ranks
    }

    /// The locations of a cell, ascending.
    func members(of cell: Int) -> ArraySlice<Int32> {
        members[Int(starts[cell])..<Int(starts[cell + 1])]
    }

    /// Calls `body` with every non-empty cell whose column and row lie in the ranges.
    func forEachCell(columns: ClosedRange<Int>, rows: ClosedRange<Int>, _ body: (Int) -> Void) {
        var slot = lowerBound(key(column: columns.lowerBound, row: rows.lowerBound))
        while slot < keys.count {
            let column = Int(keys[slot] >> UInt64(rowBits))
            let row = Int(keys[slot] & (1 << UInt64(rowBits) - 1))
            if column > columns.upperBound { return }
            if row < rows.lowerBound {
                slot = lowerBound(key(column: column, row: rows.lowerBound))
            } else if row > rows.upperBound {
                slot = lowerBound(key(column: column + 1, row: rows.lowerBound))
            } else {
                body(slot)
                slot += 1
            }
        }
    }

    private func key(column: Int, row: Int) -> UInt64 {
        Self.key(MercatorCell(column: column, row: row), rowBits: rowBits)
    }

    private static func key(_ cell: MercatorCell, rowBits: Int) -> UInt64 {
        UInt64(cell.column) << UInt64(rowBits) | UInt64(cell.row)
    }

    /// The first slot whose key is `>= key`.
    private func lowerBound(_ key: UInt64) -> Int {
        var low = 0, high = keys.count
        while low < high {
            let mid = (low + high) / 2
            if keys[mid] < key { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// A box in degrees, never across the antimeridian (`west <= east`).
    struct CellBox: Sendable {
        var south: Double
        var west: Double
        var north: Double
        var east: Double
    }
}
