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

    public init(catalog: PhotoCatalog) {
        let locations = ClusterLocations(catalog: catalog)
        let finest = locations.cells(zoom: MercatorCell.zooms.upperBound)
        grids = MercatorCell.zooms.map { ClusterGrid(zoom: $0, finest: finest, locations: locations) }
        self.locations = locations
    }

    /// The clusters of the box's matching locations, by matching photo count
    /// descending, then their representative's `locationID`.
    public func clusters(_ query: ClusterQuery) -> ClusterResult {
        let grid = grids[query.zoom]
        let filtered = query.filter.filtersYears || query.filter.borough != nil
        var matches: [ClusterMatch] = []
        for columns in Self.columnRanges(query) {
            grid.forEachCell(columns: columns, rows: Self.rowRange(query)) { cell in
                let whole = grid.cells[cell]
                guard whole.north >= query.south, whole.south <= query.north,
                    query.overlapsLongitudes(whole.west, whole.east)
                else { return }
                if !filtered, whole.south >= query.south, whole.north <= query.north,
                    query.containsLongitudes(whole.west, whole.east)
                {
                    matches.append(ClusterMatch(cluster: whole, cell: cell, isWholeCell: true))
                } else if let part = locations.cluster(of: grid.members(of: cell), in: query) {
                    matches.append(ClusterMatch(cluster: part, cell: cell, isWholeCell: part == whole))
                }
            }
        }
        // Representatives differ between cells, so the order is total.
        var order = matches.indices.map { index in
            (photoCount: matches[index].cluster.photoCount, representative: matches[index].cluster.representative, index: index)
        }
        order.sort { $0.photoCount != $1.photoCount ? $0.photoCount > $1.photoCount : $0.representative < $1.representative }
        return ClusterResult(
            zoom: query.zoom, matches: order.prefix(query.limit).map { matches[$0.index] }, total: matches.count)
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
