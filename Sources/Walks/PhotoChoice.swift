/// The photo a walk gains at a point.
public struct PhotoChoice: Sendable, Equatable {
    public let photoID: String
    /// Index in `PhotoCatalog.photos`.
    public let photo: Int
    /// Index in `PhotoCatalog.locations` of the photo's location.
    public let location: Int
    /// Great-circle distance from the point to the location, in metres.
    public let distanceMeters: Double
}
