/// A location found by a nearby search.
public struct NearbyMatch: Sendable, Equatable {
    /// Index in `PhotoCatalog.locations`.
    public let location: Int
    /// Great-circle distance from the query point in metres.
    public let distance: Double
    /// How many of its photos match the filter.
    public let photoCount: Int
    /// With a cone, the initial bearing from the query point in degrees (0 ≤ b < 360),
    /// as `GreatCircle.initialBearing` defines it; nil without one.
    public let bearing: Double?
}
