import Catalog

/// Map clusters of the catalog (`GET /clusters`), answered from memory: a grid per
/// zoom level, built at start, whose whole cells are summed up in advance. A query
/// visits only the cells its box touches; a cell wholly inside the box with no
/// filter is used as precomputed, the others are summed from their locations.
///
/// `Sendable`: immutable after `init`.
public final class ClusterIndex: Sendable {
    /// The grid of each zoom level, indexed by zoom.
    public let grids: [ClusterGrid]
    private let locations: ClusterLocations
    private let orderKey: ClusterOrderKey

    public init(catalog: PhotoCatalog) {
        let orderKey = ClusterOrderKey(locationCount: catalog.locations.count, photoCount: catalog.photos.count)
        let locations = ClusterLocations(catalog: catalog)
        let finest = locations.cells(zoom: MercatorCell.zooms.upperBound)
        grids = MercatorCell.zooms.map { ClusterGrid(zoom: $0, finest: finest, locations: locations, orderKey: orderKey) }
        self.orderKey = orderKey
        self.locations = locations
    }

    /// The clusters of the box's matching locations, by matching photo count
    /// descending, then their representative's `locationID`.
    public func clusters(_ query: ClusterQuery) -> ClusterResult {
        let grid = grids[query.zoom]
        let filtered = query.filter.filtersPhotos || query.filter.borough != nil
        // Whole cells found, as bits at their ranks in the grid's order.
        var wholeRanks = [UInt64](repeating: 0, count: (grid.cells.count + 63) / 64)
        var wholeCount = 0
        var parts: [Cluster] = []
        var partCells: [Int32] = []
        for columns in Self.columnRanges(query) {
            grid.forEachCell(columns: columns, rows: Self.rowRange(query)) { cell in
                let box = grid.boxes[cell]
                guard box.north >= query.south, box.south <= query.north, query.overlapsLongitudes(box.west, box.east)
                else { return }
                let isWhole: Bool
                if !filtered, box.south >= query.south, box.north <= query.north, query.containsLongitudes(box.west, box.east) {
                    isWhole = true
                } else if let part = locations.cluster(of: grid.members(of: cell), in: query) {
                    isWhole = part == grid.cells[cell]
                    if !isWhole {
                        parts.append(part)
                        partCells.append(Int32(cell))
                    }
                } else {
                    isWhole = false
                }
                if isWhole {
                    let rank = Int(grid.ranks[cell])
                    wholeRanks[rank / 64] |= 1 << (rank % 64)
                    wholeCount += 1
                }
            }
        }
        // Parts are sorted; whole cells come in order from their ranks; the two merge.
        // Representatives differ between cells, so the order is total.
        var partOrder = parts.indices.map { orderKey.key(parts[$0], match: $0) }
        partOrder.sort()
        var matches: [ClusterMatch] = []
        matches.reserveCapacity(min(query.limit, wholeCount + parts.count))
        var nextPart = 0
        func takeParts(before key: UInt64) {
            while nextPart < partOrder.count, partOrder[nextPart] < key, matches.count < query.limit {
                let part = orderKey.match(partOrder[nextPart])
                matches.append(ClusterMatch(cell: Int(partCells[part]), part: part))
                nextPart += 1
            }
        }
        words: for (word, bits) in wholeRanks.enumerated() where bits != 0 {
            var remaining = bits
            while remaining != 0 {
                let cell = Int(grid.ranked[word * 64 + remaining.trailingZeroBitCount])
                remaining &= remaining - 1
                if nextPart < partOrder.count { takeParts(before: orderKey.key(grid.cells[cell], match: 0)) }
                guard matches.count < query.limit else { break words }
                matches.append(ClusterMatch(cell: cell, part: -1))
            }
        }
        takeParts(before: .max)
        return ClusterResult(
            zoom: query.zoom, matches: matches, total: wholeCount + parts.count, cells: grid.cells, parts: parts)
    }

    /// The rows that may hold the box's points: one row wider on each side than the
    /// rows of its edges, so that no rounding of the trigonometry can lose a point;
    /// every point found is checked against the box itself.
    private static func rowRange(_ query: ClusterQuery) -> ClosedRange<Int> {
        let last = MercatorCell.side(zoom: query.zoom) - 1
        let top = MercatorCell.row(latitude: query.north, zoom: query.zoom)
        let bottom = MercatorCell.row(latitude: query.south, zoom: query.zoom)
        return max(min(top, bottom) - 1, 0)...min(max(top, bottom) + 1, last)
    }

    /// The columns that may hold the box's points, widened by one like the rows:
    /// two ranges when the box crosses the antimeridian (one when they would meet).
    private static func columnRanges(_ query: ClusterQuery) -> [ClosedRange<Int>] {
        let last = MercatorCell.side(zoom: query.zoom) - 1
        let westEdge = MercatorCell.column(longitude: query.west, zoom: query.zoom)
        let eastEdge = MercatorCell.column(longitude: query.east, zoom: query.zoom)
        if query.west <= query.east {
            return [max(min(westEdge, eastEdge) - 1, 0)...min(max(westEdge, eastEdge) + 1, last)]
        }
        let west = max(westEdge - 1, 0)
        let east = min(eastEdge + 1, last)
        return west <= east + 1 ? [0...last] : [0...east, west...last]
    }
}
