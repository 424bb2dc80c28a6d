import TestSupport
import Testing

@testable import Explore

/// The favorites tour's path against brute force and the nearest-neighbour order.
@Suite struct ShortestOpenPathTests {
    static func points(seed: UInt64, count: Int) -> [TourOracle.Point] {
        var random = SeededGenerator(seed: seed)
        return (0...count).map { _ in
            TourOracle.Point(
                latitude: 40.70 + Double.random(in: 0..<0.08, using: &random),
                longitude: -74.01 + Double.random(in: 0..<0.08, using: &random))
        }
    }

    /// The order and its length as the planner walks it (point 0 is the start).
    static func plan(_ points: [TourOracle.Point]) -> (order: [Int], meters: Double) {
        let path = ShortestOpenPath(points.map { Waypoint(latitude: $0.latitude, longitude: $0.longitude) })
        let order = path.order()
        var meters = 0.0
        var previous = points[0]
        for point in order {
            meters += TourOracle.meters(previous, points[point])
            previous = points[point]
        }
        return (order, meters)
    }

    @Test(arguments: 0..<60)
    func atMostNineLocationsTakeTheShortestPath(_ seed: Int) {
        let points = Self.points(seed: UInt64(seed), count: seed % (ShortestOpenPath.exactLimit + 1))
        let (order, meters) = Self.plan(points)
        #expect(order.sorted() == Array(1..<points.count))
        let shortest = TourOracle.shortestOpenPath(start: points[0], points: Array(points.dropFirst()))
        #expect(abs(meters - (points.count > 1 ? shortest : 0)) < 1e-6, "seed \(seed)")
    }

    @Test(arguments: 0..<30)
    func moreLocationsAreNeverLongerThanNearestNeighbour(_ seed: Int) {
        let points = Self.points(seed: UInt64(100 + seed), count: ShortestOpenPath.exactLimit + 1 + seed * 4 % 41)
        let (order, meters) = Self.plan(points)
        #expect(order.sorted() == Array(1..<points.count))
        let nearestNeighbour = TourOracle.nearestNeighbourLength(start: points[0], points: Array(points.dropFirst()))
        #expect(meters <= nearestNeighbour + 1e-6, "seed \(seed)")
        #expect(Self.plan(points).order == order)
    }
}
