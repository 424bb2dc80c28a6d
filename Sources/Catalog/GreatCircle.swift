import Foundation

/// Great-circle distances on a sphere of the Earth's mean radius (IUGG R1).
public enum GreatCircle {
    /// Mean Earth radius in metres, as CONTRACT.md specifies.
    public static let earthRadius = 6_371_008.8

    /// The haversine distance in metres between two points given in degrees.
    /// Haversine stays accurate for the short distances the API mostly serves,
    /// where the spherical law of cosines loses precision.
    public static func distance(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Double {
        let phi1 = latitude1 * .pi / 180
        let phi2 = latitude2 * .pi / 180
        let halfDeltaPhi = (latitude2 - latitude1) * .pi / 360
        let halfDeltaLambda = (longitude2 - longitude1) * .pi / 360
        let sinPhi = sin(halfDeltaPhi)
        let sinLambda = sin(halfDeltaLambda)
        let a = sinPhi * sinPhi + cos(phi1) * cos(phi2) * sinLambda * sinLambda
        return 2 * earthRadius * asin(min(1, a.squareRoot()))
    }

    /// The point as a unit vector; straight-line (chord) distances between such
    /// vectors grow monotonically with great-circle distance.
    static func unitVector(latitude: Double, longitude: Double) -> SIMD3<Double> {
        let phi = latitude * .pi / 180
        let lambda = longitude * .pi / 180
        return SIMD3(cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi))
    }

    /// The chord length between unit vectors whose great-circle distance is `meters`,
    /// enlarged slightly so it stays an upper bound despite rounding.
    static func chordBound(forDistance meters: Double) -> Double {
        guard meters < .pi * earthRadius else { return 3 }
        return 2 * sin(meters / (2 * earthRadius)) * (1 + 1e-9) + 1e-9
    }
}
