import Foundation

/// A `ViewCone` aimed from one point, tested with vectors instead of trigonometry: the
/// initial bearing from the point to another is the direction, in the point's tangent
/// plane, of the other's unit vector (its components along north and east are exactly the
/// two arguments of the bearing's atan2). So a location is in the cone when that direction
/// is within `fieldOfView / 2` of the heading, a few multiplications instead of five
/// trigonometric calls; only a location within rounding of the cone's edge or of the
/// 15 m circle is decided by the exact formulas, so the answer is the formulas' answer.
struct AimedCone {
    private let cone: ViewCone
    private let latitude: Double
    private let longitude: Double
    private let origin: SIMD3<Double>
    /// Unit vectors of the tangent plane at the point; nil at a pole, where east is undefined.
    private let axes: (north: SIMD3<Double>, east: SIMD3<Double>)?
    private let cosHeading: Double
    private let sinHeading: Double
    private let cosHalfField: Double
    /// The chord of `ViewCone.nearbyMeters`, enlarged past any rounding.
    private let nearbyChord: Double

    /// How far (relative to the vectors' lengths) a result must clear an edge to be trusted
    /// without the exact formulas: far above the vectors' rounding (about 1e-16).
    private static let margin = 1e-9

    init(_ cone: ViewCone, latitude: Double, longitude: Double) {
        self.cone = cone
        self.latitude = latitude
        self.longitude = longitude
        origin = GreatCircle.unitVector(latitude: latitude, longitude: longitude)
        let phi = latitude * .pi / 180
        let lambda = longitude * .pi / 180
        let (sinPhi, cosPhi, sinLambda, cosLambda) = (sin(phi), cos(phi), sin(lambda), cos(lambda))
        if cosPhi < 1e-9 {
            axes = nil
        } else {
            let north = SIMD3<Double>(-sinPhi * cosLambda, -sinPhi * sinLambda, cosPhi)
            let east = SIMD3<Double>(-sinLambda, cosLambda, 0)
            axes = (north, east)
        }
        let heading = cone.heading * .pi / 180
        cosHeading = cos(heading)
        sinHeading = sin(heading)
        cosHalfField = cos(cone.fieldOfView / 2 * .pi / 180)
        nearbyChord = GreatCircle.chordBound(forDistance: ViewCone.nearbyMeters) * (1 + 1e-6)
    }

    /// Whether the location at `latitude`, `longitude`, whose unit vector is `vector`, is in the cone.
    func contains(_ vector: SIMD3<Double>, latitude otherLatitude: Double, longitude otherLongitude: Double) -> Bool {
        if let axes, cone.fieldOfView < 360 {
            let north = (vector * axes.north).sum()
            let east = (vector * axes.east).sum()
            let length = (north * north + east * east).squareRoot()
            let excess = north * cosHeading + east * sinHeading - length * cosHalfField
            if excess > Self.margin * length { return true }
            if excess < -Self.margin * length {
                // Outside the cone: kept only within 15 m, which a longer chord rules out.
                let chord = vector - origin
                if (chord * chord).sum() > nearbyChord * nearbyChord { return false }
            }
        }
        return cone.contains(
            bearing: GreatCircle.initialBearing(
                latitude1: latitude, longitude1: longitude, latitude2: otherLatitude, longitude2: otherLongitude),
            distance: GreatCircle.distance(
                latitude1: latitude, longitude1: longitude, latitude2: otherLatitude, longitude2: otherLongitude))
    }
}
