import Catalog
import Testing
import TestSupport
import Walks

@Suite struct WalkProgressTests {
    @Test func theFirstPointIsAlwaysAccepted() throws {
        let progress = try #require(WalkProgress.start.accepting(WalkPoint(latitude: 40.7, longitude: -74)))
        #expect(progress == WalkProgress(pointCount: 1, distanceMeters: 0, lastPoint: WalkPoint(latitude: 40.7, longitude: -74)))
    }

    /// 0.0009° of latitude is about 100.08 m, 0.00089° about 98.96 m.
    @Test(arguments: [(0.0009, true), (0.00089, false), (0, false), (-0.0009, true), (0.01, true)])
    func aPointCountsFrom100MetresOfTheLastAcceptedOne(offset: Double, accepted: Bool) throws {
        let first = try #require(WalkProgress.start.accepting(WalkPoint(latitude: 40.7, longitude: -74)))
        let next = first.accepting(WalkPoint(latitude: 40.7 + offset, longitude: -74))
        #expect((next != nil) == accepted)
        if let next {
            #expect(next.pointCount == 2)
            #expect(abs(next.distanceMeters - WalkOracle.haversine((40.7, -74), (40.7 + offset, -74))) < 1e-6)
        }
    }

    /// Rejected points do not move the reference: creeping forward 60 m at a time,
    /// every second point is accepted, and the distance is the sum of the accepted legs.
    @Test func distanceIsTheSumOfAcceptedLegs() throws {
        var progress = WalkProgress.start
        var accepted: [(Double, Double)] = []
        for step in 0..<40 {
            let point = (40.7 + Double(step) * 0.00054, -74.0)  // about 60 m apart
            if let next = progress.accepting(WalkPoint(latitude: point.0, longitude: point.1)) {
                progress = next
                accepted.append(point)
            }
        }
        #expect(accepted.count == 20)
        let expected = zip(accepted, accepted.dropFirst()).reduce(0) { $0 + WalkOracle.haversine($1.0, $1.1) }
        #expect(progress.pointCount == 20)
        #expect(abs(progress.distanceMeters - expected) < 1e-6)
        #expect(progress.lastPoint == WalkPoint(latitude: accepted.last!.0, longitude: accepted.last!.1))
    }
}
