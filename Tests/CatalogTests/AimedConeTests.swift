import Testing
import TestSupport

@testable import Catalog

/// `AimedCone` (vectors, exact formulas only near an edge) against `ViewCone` with the
/// exact bearing and distance, on seeded random points, headings and fields of view,
/// with many points placed exactly on the cone's edges and on the 15 m circle.
@Suite struct AimedConeTests {
    @Test func theVectorTestAgreesWithTheFormulas() {
        var random = SeededGenerator(seed: 0xC0E)
        for round in 0..<20_000 {
            let fieldOfView = [0.001, 1, 60, 90, 180, 270, 359.99, 360].randomElement(using: &random)!
            // A point up to a few kilometres away, or within a few metres of the 15 m circle.
            let (latitude, longitude, otherLatitude, otherLongitude) = Self.randomPoints(
                round: round, spread: Bool.random(using: &random) ? 0.03 : 0.0002, using: &random)
            let bearing = GreatCircle.initialBearing(
                latitude1: latitude, longitude1: longitude, latitude2: otherLatitude, longitude2: otherLongitude)
            let distance = GreatCircle.distance(
                latitude1: latitude, longitude1: longitude, latitude2: otherLatitude, longitude2: otherLongitude)
            // Half the time the heading puts the point on an edge of the cone, to the last bit.
            var heading = Double.random(in: 0..<360, using: &random)
            if Bool.random(using: &random) {
                heading = (bearing + (Bool.random(using: &random) ? 1 : -1) * fieldOfView / 2)
                    .truncatingRemainder(dividingBy: 360)
                if heading < 0 { heading += 360 }
                if heading >= 360 { heading = 0 }
            }
            let cone = ViewCone(heading: heading, fieldOfView: fieldOfView)
            let aimed = AimedCone(cone, latitude: latitude, longitude: longitude)
            let vector = GreatCircle.unitVector(latitude: otherLatitude, longitude: otherLongitude)
            #expect(
                aimed.contains(vector, latitude: otherLatitude, longitude: otherLongitude)
                    == cone.contains(bearing: bearing, distance: distance),
                "\(latitude),\(longitude) → \(otherLatitude),\(otherLongitude) heading \(heading) fov \(fieldOfView)")
        }
    }

    /// The bearing from the vectors against `GreatCircle.initialBearing` on seeded random
    /// points: the same angle to far below the tenth `/nearby` writes, 0 at the point itself.
    @Test func theVectorBearingAgreesWithTheFormula() {
        var random = SeededGenerator(seed: 0xBEA)
        for round in 0..<20_000 {
            let spread = [0.05, 0.001, 0.0001, 0].randomElement(using: &random)!
            let (latitude, longitude, otherLatitude, otherLongitude) = Self.randomPoints(round: round, spread: spread, using: &random)
            let aimed = AimedCone(ViewCone(heading: 0), latitude: latitude, longitude: longitude)
            let bearing = aimed.bearing(
                to: GreatCircle.unitVector(latitude: otherLatitude, longitude: otherLongitude),
                latitude: otherLatitude, longitude: otherLongitude)
            let formula = GreatCircle.initialBearing(
                latitude1: latitude, longitude1: longitude, latitude2: otherLatitude, longitude2: otherLongitude)
            let difference = abs(bearing - formula)
            #expect((0..<360).contains(bearing) && min(difference, 360 - difference) < 1e-7, "\(round): \(bearing) vs \(formula)")
            if spread == 0 { #expect(bearing == 0, "the point itself") }
        }
    }

    /// A seeded point of New York (every 500th round near a pole or on the equator) and
    /// another up to `spread` degrees from it in each coordinate.
    private static func randomPoints(
        round: Int, spread: Double, using random: inout SeededGenerator
    ) -> (latitude: Double, longitude: Double, otherLatitude: Double, otherLongitude: Double) {
        let latitude = round % 500 == 0 ? [89.9999999, -89.99999999, 0].randomElement(using: &random)!
            : Double.random(in: 40.4...41, using: &random)
        let longitude = Double.random(in: -74.3...(-73.6), using: &random)
        let otherLatitude = max(-90, min(90, latitude + Double.random(in: -spread...spread, using: &random)))
        return (latitude, longitude, otherLatitude, longitude + Double.random(in: -spread...spread, using: &random))
    }
}
