import Catalog

/// The clusters of a box at a zoom level (`GET /clusters`): the box and the filter
/// select locations as for `/region` (edges inclusive; `west > east` crosses the
/// antimeridian), the zoom picks the grid, `limit` caps the clusters returned.
public struct ClusterQuery: Sendable, Hashable {
    public var south: Double
    public var west: Double
    public var north: Double
    public var east: Double
    /// In `MercatorCell.zooms`.
    public var zoom: Int
    public var limit: Int
    public var filter: PhotoFilter

    public init(
        south: Double, west: Double, north: Double, east: Double, zoom: Int, limit: Int,
        filter: PhotoFilter = PhotoFilter()
    ) {
        precondition(MercatorCell.zooms.contains(zoom), "zoom \(zoom) is outside \(MercatorCell.zooms)")
        self.south = south
        self.west = west
        self.north = north
        self.east = east
        self.zoom = zoom
        self.limit = limit
        self.filter = filter
    }

    /// Whether the box holds a point, edges included (as `RegionQuery` decides).
    func contains(latitude: Double, longitude: Double) -> Bool {
        latitude >= south && latitude <= north && containsLongitudes(longitude, longitude)
    }

    /// Whether every longitude from `low` to `high` (`low <= high`, not crossing the
    /// antimeridian) lies in the box.
    func containsLongitudes(_ low: Double, _ high: Double) -> Bool {
        west <= east ? (low >= west && high <= east) : (low >= west || high <= east)
    }

    /// Whether some longitude from `low` to `high` (`low <= high`) lies in the box.
    func overlapsLongitudes(_ low: Double, _ high: Double) -> Bool {
        west <= east ? (high >= west && low <= east) : (high >= west || low <= east)
    }
}
