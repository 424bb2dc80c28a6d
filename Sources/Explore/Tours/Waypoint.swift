import Catalog

/// A point of a planning problem (the start or a site) with what distances to it need,
/// computed once: the cosine of its latitude for haversine, and its position on a
/// sphere of the Earth's radius for chords.
///
/// Planners search by chord length, a square root with no trigonometry, and measure
/// every tour they keep with haversine (`meters(to:)`), the distance the API reports.
/// Over a city the two differ by far less than a millimetre (the chord is shorter by a
/// relative θ²/24, about 3e-7 at 18 km), so the chord ranks moves as well as haversine.
struct Waypoint: Sendable {
    let latitude: Double
    let longitude: Double
    private let cosLatitude: Double
    private let x: Double
    private let y: Double
    private let z: Double

    init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
        cosLatitude = GreatCircle.cosLatitude(latitude)
        let unit = GreatCircle.unitVector(latitude: latitude, longitude: longitude) * GreatCircle.earthRadius
        x = unit.x
        y = unit.y
        z = unit.z
    }

    /// The great-circle distance in metres, bit for bit `GreatCircle.distance` (and the
    /// same both ways round).
    func meters(to other: Waypoint) -> Double {
        GreatCircle.distance(
            latitude1: latitude, longitude1: longitude, cosLatitude1: cosLatitude,
            latitude2: other.latitude, longitude2: other.longitude, cosLatitude2: other.cosLatitude)
    }

    /// The straight-line distance through the Earth in metres: never more than
    /// `meters(to:)` but for rounding, and almost equal over short distances.
    @inline(__always)
    func chordMeters(to other: Waypoint) -> Double {
        let dx = x - other.x, dy = y - other.y, dz = z - other.z
        return (dx * dx + dy * dy + dz * dz).squareRoot()
    }
}
