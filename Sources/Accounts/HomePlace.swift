/// The place a user calls home, in WGS84 degrees (validated by `ProfilePolicy`).
public struct HomePlace: Sendable, Equatable {
    public let latitude: Double
    public let longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}
