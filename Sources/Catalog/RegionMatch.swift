/// A location found inside a region box.
public struct RegionMatch: Sendable, Equatable {
    /// Index in `PhotoCatalog.locations`.
    public let location: Int
    /// How many of its photos match the filter.
    public let photoCount: Int
    /// Index in `PhotoCatalog.photos` of its first matching photo in source order.
    public let firstPhoto: Int
}
