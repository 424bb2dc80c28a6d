import Foundation

/// Great-circle distances on a sphere of the Earth's mean radius (IUGG R1).
public enum GreatCircle {
    /// Mean Earth radius in metres, as openapi.yaml specifies for every distance.
    public static let earthRadius = 6_371_008.8

    /// The haversine distance in metres between two points given in degrees.
    /// Haversine stays accurate for the short distances the API mostly serves,
    /// where the spherical law of cosines loses precision.
    public static func distance(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Double {
        distance(
            latitude1: latitude1, longitude1: longitude1, cosLatitude1: cosLatitude(latitude1),
            latitude2: latitude2, longitude2: longitude2, cosLatitude2: cosLatitude(latitude2))
    }

    /// The same distance, bit for bit, with the cosines of both latitudes
    /// (`cosLatitude(_:)`) computed once by the caller rather than on every call.
    public static func distance(
        latitude1: Double, longitude1: Double, cosLatitude1: Double,
        latitude2: Double, longitude2: Double, cosLatitude2: Double
    ) -> Double {
        let halfDeltaPhi = (latitude2 - latitude1) * .pi / 360
        let halfDeltaLambda = (longitude2 - longitude1) * .pi / 360
        let sinPhi = sin(halfDeltaPhi)
        let sinLambda = sin(halfDeltaLambda)
        let a = sinPhi * sinPhi + cosLatitude1 * cosLatitude2 * sinLambda * sinLambda
        return 2 * earthRadius * asin(min(1, a.squareRoot()))
    }

    /// The initial bearing of the great circle from point 1 to point 2, in degrees
    /// clockwise from true north, 0 ≤ bearing < 360: atan2(sin Δλ·cos φ2,
    /// cos φ1·sin φ2 − sin φ1·cos φ2·cos Δλ). A point onto itself has bearing 0.
    public static func initialBearing(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Double {
        let phi1 = latitude1 * .pi / 180
        let phi2 = latitude2 * .pi / 180
        let deltaLambda = (longitude2 - longitude1) * .pi / 180
        let y = sin(deltaLambda) * cos(phi2)
        let x = cos(phi1) * sin(phi2) - sin(phi1) * cos(phi2) * cos(deltaLambda)
        return bearing(east: y, north: x)
    }

    /// The direction of a vector whose components along east and north are given, in
    /// degrees clockwise from north, 0 ≤ bearing < 360 (0 for the zero vector).
    static func bearing(east: Double, north: Double) -> Double {
        let degrees = atan2(east, north) * 180 / .pi
        let bearing = degrees < 0 ? degrees + 360 : degrees
        return bearing < 360 ? bearing : 0
    }

    /// The cosine of a latitude given in degrees, as `distance` uses it.
    public static func cosLatitude(_ latitude: Double) -> Double {
        cos(latitude * .pi / 180)
    }

    /// The point as a unit vector; straight-line (chord) distances between such
    /// vectors grow monotonically with great-circle distance.
    public static func unitVector(latitude: Double, longitude: Double) -> SIMD3<Double> {
        let phi = latitude * .pi / 180
        let lambda = longitude * .pi / 180
        return SIMD3(cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi))
    }

    /// The chord length between unit vectors whose great-circle distance is `meters`,
    /// enlarged slightly so it stays an upper bound despite rounding.
    static func chordBound(forDistance meters: Double) -> Double {
        guard meters < .pi * earthRadius else { return 3 }
        return chordBound(forChord: 2 * sin(meters / (2 * earthRadius)))
    }

    /// A chord length between unit vectors enlarged by far more than the rounding of the
    /// chords and distances computed here (about 1e-16 of a chord), yet by only about
    /// 6 mm on the ground.
    static func chordBound(forChord chord: Double) -> Double {
        chord * (1 + 1e-9) + 1e-9
    }
}
