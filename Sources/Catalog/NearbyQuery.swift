/// The locations closest to a point (`GET /nearby`).
public struct NearbyQuery: Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double
    /// At most this many locations.
    public var limit: Int
    /// Only locations at most this many metres away, when set.
    public var radius: Double?
    public var filter: PhotoFilter
    /// Only locations in this cone, when set.
    public var cone: ViewCone?

    public init(
        latitude: Double, longitude: Double, limit: Int, radius: Double? = nil, filter: PhotoFilter = PhotoFilter(),
        cone: ViewCone? = nil
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.limit = limit
        self.radius = radius
        self.filter = filter
        self.cone = cone
    }
}
