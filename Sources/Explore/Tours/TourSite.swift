/// A place a tour may stop at, with the photos it is worth.
public struct TourSite: Sendable, Equatable {
    /// The caller's name for it, handed back in the tour: the catalog's location index.
    public let location: Int
    public let latitude: Double
    public let longitude: Double
    public let photoCount: Int

    public init(location: Int, latitude: Double, longitude: Double, photoCount: Int) {
        self.location = location
        self.latitude = latitude
        self.longitude = longitude
        self.photoCount = photoCount
    }
}
