import Catalog

/// A walking tour through the most photographed locations (`GET /tours`).
public struct TourQuery: Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double
    public var budget: TourBudget
    /// Only locations with at least this many photos matching `filter` are stops.
    public var minPhotos: Int
    public var filter: PhotoFilter

    public init(latitude: Double, longitude: Double, budget: TourBudget, minPhotos: Int, filter: PhotoFilter = PhotoFilter()) {
        self.latitude = latitude
        self.longitude = longitude
        self.budget = budget
        self.minPhotos = minPhotos
        self.filter = filter
    }
}
