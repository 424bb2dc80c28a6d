/// Where the walker was: WGS84 degrees, already validated (latitude in [-90, 90],
/// longitude in [-180, 180], both finite).
public struct WalkPoint: Sendable, Equatable {
    public let latitude: Double
    public let longitude: Double

    public init(latitude: Double, longitude: Double) {
        precondition((-90...90).contains(latitude) && (-180...180).contains(longitude), "validated coordinates")
        self.latitude = latitude
        self.longitude = longitude
    }
}
