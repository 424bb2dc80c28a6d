/// One non-empty grid cell of a cluster query: the matching locations of the box
/// that fall in it, summed up.
public struct Cluster: Sendable, Equatable {
    /// The plain mean of its locations' coordinates.
    public var latitude: Double
    public var longitude: Double
    public var locationCount: Int
    /// Its locations' photos that match the filter.
    public var photoCount: Int
    /// The box around its locations.
    public var south: Double
    public var west: Double
    public var north: Double
    public var east: Double
    /// Index in `PhotoCatalog.locations` of its most photographed location (the most
    /// matching photos; ties: the smallest `locationID`). Orders clusters of equal
    /// `photoCount`, and is the cluster's location when it has only one.
    public var representative: Int
    /// Index in `PhotoCatalog.photos` of the representative's first matching photo.
    public var thumbnailPhoto: Int
}
