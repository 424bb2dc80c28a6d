/// A location found by a nearby search.
public struct NearbyMatch: Sendable, Equatable {
    /// Index in `PhotoCatalog.locations`.
    public let location: Int
    /// Great-circle distance from the query point in metres.
    public let distance: Double
    /// How many of its photos match the filter.
    public let photoCount: Int
}
