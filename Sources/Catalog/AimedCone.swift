import Foundation

/// A `ViewCone` aimed from one point, tested with vectors instead of trigonometry: the
/// initial bearing from the point to another is the direction, in the point's tangent
/// plane, of the other's unit vector (its components along north and east are exactly the
/// two arguments of the bearing's atan2). So a location is in the cone when that direction
/// is within `fieldOfView / 2` of the heading, a few multiplications instead of five
/// trigonometric calls; only a location within rounding of the cone's edge or of the
/// 15 m circle is decided by the exact formulas, so the answer is the formulas' answer.
///
/// A class, made once per search: the tree walk asks it about every node it reaches, and
/// a closure that captures a reference calls it in place, where an optional struct of
/// this size was copied out for each call.
final class AimedCone {
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
    /// The inward normals of the cone's two edges in the tangent plane (as 3-D vectors,
    /// perpendicular to the point's): a location is in a cone of at most 180 degrees when
    /// its vector is on the inner side of both, and in a wider one when on the inner side
    /// of either. Nil when no box can be ruled out (a pole, or a full circle).
    private let edges: (first: SIMD3<Double>, second: SIMD3<Double>, either: Bool)?

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
        if let axes, cone.fieldOfView < 360 {
            // Bearing α points along cos α·north + sin α·east; the edge at H − fov/2 has
            // its inside clockwise (α + 90°), the edge at H + fov/2 anticlockwise (α − 90°).
            let first = (cone.heading - cone.fieldOfView / 2 + 90) * .pi / 180
            let second = (cone.heading + cone.fieldOfView / 2 - 90) * .pi / 180
            edges = (
                first: cos(first) * axes.north + sin(first) * axes.east,
                second: cos(second) * axes.north + sin(second) * axes.east,
                either: cone.fieldOfView > 180)
        } else {
            edges = nil
        }
    }

    /// Whether a box of unit vectors (a k-d tree node's, `lower` to `upper`, its squared
    /// chord to the point `chordSquared`) may hold a location in the cone: false only when
    /// it lies wholly beyond 15 m and wholly outside the cone, with a margin far above
    /// rounding. So the search skips it without testing its locations one by one.
    func mayReach(lower: SIMD3<Double>, upper: SIMD3<Double>, chordSquared: Double) -> Bool {
        guard let edges, chordSquared > nearbyChord * nearbyChord else { return true }
        // The most any vector of the box reaches along a normal: each axis at its best end.
        func reach(_ normal: SIMD3<Double>) -> Double {
            (pointwiseMax(normal * lower, normal * upper)).sum()
        }
        let first = reach(edges.first) >= -Self.margin
        let second = reach(edges.second) >= -Self.margin
        return edges.either ? first || second : first && second
    }

    /// The initial bearing in degrees (0 ≤ b < 360) to the location at `latitude`,
    /// `longitude`, whose unit vector is `vector`: the atan2 of its components along east
    /// and north, which are the two arguments of `GreatCircle.initialBearing`'s atan2
    /// without its six trigonometric calls. Within 15 m (where the components' rounding
    /// would show in the angle, and the point itself must have bearing 0) and at a pole
    /// (where east is undefined), the formula.
    func bearing(to vector: SIMD3<Double>, latitude otherLatitude: Double, longitude otherLongitude: Double) -> Double {
        let chord = vector - origin
        guard let axes, (chord * chord).sum() > nearbyChord * nearbyChord else {
            return GreatCircle.initialBearing(
                latitude1: latitude, longitude1: longitude, latitude2: otherLatitude, longitude2: otherLongitude)
        }
        return GreatCircle.bearing(east: (vector * axes.east).sum(), north: (vector * axes.north).sum())
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
