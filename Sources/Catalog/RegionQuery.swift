/// The locations inside a latitude/longitude box (`GET /region`). Edges are inclusive;
/// `west > east` means the box crosses the antimeridian.
public struct RegionQuery: Sendable, Hashable {
    public var south: Double
    public var west: Double
    public var north: Double
    public var east: Double
    public var limit: Int
    public var filter: PhotoFilter

    public init(south: Double, west: Double, north: Double, east: Double, limit: Int, filter: PhotoFilter = PhotoFilter()) {
        self.south = south
        self.west = west
        self.north = north
        self.east = east
        self.limit = limit
        self.filter = filter
    }
}
