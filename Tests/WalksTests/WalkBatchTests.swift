import Accounts
import Catalog
import Foundation
import Testing
import TestSupport
import Walks

/// Batches of recorded points against the single-point path: the same points sent one
/// by one, each at its `recordedAt` (the clock pinned to it), must give the same
/// results, walk, entries and route. On SQLite and, in CI, on PostgreSQL.
@Suite struct WalkBatchTests {
    let fixture: WalksFixture
    /// The single-point path's clock, moved to each point's time before it is sent.
    let clock = TestClock(Date(timeIntervalSince1970: 1_795_000_000))
    var accounts: Accounts { fixture.accounts }
    var catalog: PhotoCatalog { fixture.catalog }

    init() throws {
        fixture = try WalksFixture(prefix: "walk-batch-tests")
    }

    private func walks(maximumPoints: Int = WalkRules.maximumPoints) -> Walks {
        Walks(database: accounts.database, catalog: { catalog }, maximumPoints: maximumPoints) { [clock] in clock.now }
    }

    /// A seeded random walk through lower Manhattan: mostly steps of 0–200 m (so about
    /// half are under 100 m and not accepted), now and then a jump or a step back onto
    /// an earlier point; times 0–30 s apart, repeats included.
    private static func recordedWalk(seed: UInt64, count: Int, from start: Int64) -> [RoutePoint] {
        var random = SeededGenerator(seed: seed)
        var (latitude, longitude) = (40.7128, -74.0060)
        var time = start
        var visited: [(Double, Double)] = []
        return (0..<count).map { _ in
            switch Int.random(in: 0..<20, using: &random) {
            case 0: (latitude, longitude) = (40.70 + Double.random(in: 0...0.08, using: &random), -74.01 + Double.random(in: 0...0.04, using: &random))
            case 1 where !visited.isEmpty: (latitude, longitude) = visited.randomElement(using: &random)!
            default:
                latitude += Double.random(in: -0.0013...0.0013, using: &random)
                longitude += Double.random(in: -0.0017...0.0017, using: &random)
            }
            visited.append((latitude, longitude))
            time += Int64.random(in: 0...4, using: &random) == 0 ? 0 : Int64.random(in: 1...30_000, using: &random)
            return RoutePoint(point: WalkPoint(latitude: latitude, longitude: longitude), recordedAt: Walks.date(time))
        }
    }

    /// The points cut into batches of random sizes (up to the maximum).
    private static func batches(of points: [RoutePoint], seed: UInt64) -> [[RoutePoint]] {
        var random = SeededGenerator(seed: seed)
        var batches: [[RoutePoint]] = []
        var rest = points[...]
        while !rest.isEmpty {
            let size = Int.random(in: 0..<4, using: &random) == 0 ? WalkRules.batchPoints.upperBound : Int.random(in: 1...60, using: &random)
            batches.append(Array(rest.prefix(size)))
            rest = rest.dropFirst(size)
        }
        return batches
    }

    /// The single-point path with each point's time: `addPoint` with the clock at its
    /// `recordedAt`, and the batch's own rule (recorded no later than the last accepted
    /// point: not accepted) and cap (past it: not accepted) applied first.
    private func sendOneByOne(
        _ points: [RoutePoint], to walkID: String, of owner: AuthenticatedUser, with walks: Walks,
        lastAccepted: inout Date?
    ) throws -> [WalkPointResult] {
        try points.map { point in
            if let last = lastAccepted, point.recordedAt <= last { return .notAccepted }
            clock.set(point.recordedAt)
            do {
                switch try walks.addPoint(owner, walkID: walkID, point: point.point) {
                case .accepted(_, let entry):
                    lastAccepted = point.recordedAt
                    return .accepted(entry: entry)
                case .rejected:
                    return .notAccepted
                }
            } catch WalkError.walkFull {
                return .notAccepted
            }
        }
    }

    private func allEntries(_ walks: Walks, _ owner: AuthenticatedUser, _ walkID: String) throws -> [WalkEntry] {
        var entries: [WalkEntry] = []
        var cursor: String?
        repeat {
            let page = try walks.walk(owner, walkID: walkID, limit: 200, cursor: cursor)
            entries += page.entries
            cursor = page.nextCursor
        } while cursor != nil
        return entries
    }

    /// Long seeded random walks, cut into random batches, each batch now and then sent
    /// twice: the batched walk and the one-by-one walk agree after every batch, and a
    /// batch sent again accepts nothing and changes nothing.
    @Test(arguments: [1 as UInt64, 2, 3]) func batchesMatchTheSinglePointPath(seed: UInt64) throws {
        // The third walk reaches a lowered cap halfway.
        let maximumPoints = seed == 3 ? 150 : WalkRules.maximumPoints
        let walks = walks(maximumPoints: maximumPoints)
        let owner = try fixture.user("batcher-\(seed)")
        let start: Int64 = 1_795_000_000_000
        let points = Self.recordedWalk(seed: seed, count: 1_200, from: start)
        // The batched walk's clock: past every point, so none is from the future.
        let batchWalks = Walks(
            database: accounts.database, catalog: { catalog }, maximumPoints: maximumPoints,
            clock: { Walks.date(start + 100_000_000) })
        let batched = try batchWalks.start(owner)
        let single = try walks.start(owner)
        var lastAccepted: Date?
        var random = SeededGenerator(seed: seed + 100)
        for batch in Self.batches(of: points, seed: seed) {
            let before = try batchWalks.walk(owner, walkID: batched.walkID, limit: 1, cursor: nil).walk
            let expected = try sendOneByOne(batch, to: single.walkID, of: owner, with: walks, lastAccepted: &lastAccepted)
            guard before.pointCount < maximumPoints else {
                #expect(throws: WalkError.walkFull(maximumPoints: maximumPoints)) {
                    try batchWalks.addPoints(owner, walkID: batched.walkID, points: batch)
                }
                #expect(expected == Array(repeating: .notAccepted, count: batch.count))
                continue
            }
            let outcome = try batchWalks.addPoints(owner, walkID: batched.walkID, points: batch)
            #expect(outcome.results == expected)
            let singleWalk = try walks.walk(owner, walkID: single.walkID, limit: 1, cursor: nil).walk
            #expect(outcome.walk.pointCount == singleWalk.pointCount)
            #expect(outcome.walk.distanceMeters == singleWalk.distanceMeters)
            #expect(outcome.walk.photoCount == singleWalk.photoCount)
            #expect(outcome.walk.startedAt == batched.startedAt, "startedAt stays the creation time")
            if singleWalk.pointCount > 0 { #expect(outcome.walk.updatedAt == singleWalk.updatedAt) }
            #expect(try batchWalks.walk(owner, walkID: batched.walkID, limit: 1, cursor: nil).walk == outcome.walk)

            if Int.random(in: 0..<3, using: &random) == 0 {
                let route = try batchWalks.route(owner, walkID: batched.walkID)
                let entries = try allEntries(batchWalks, owner, batched.walkID)
                if outcome.walk.pointCount < maximumPoints {
                    let again = try batchWalks.addPoints(owner, walkID: batched.walkID, points: batch)
                    #expect(again.results == Array(repeating: .notAccepted, count: batch.count))
                    #expect(again.walk == outcome.walk)
                } else {
                    #expect(throws: WalkError.walkFull(maximumPoints: maximumPoints)) {
                        try batchWalks.addPoints(owner, walkID: batched.walkID, points: batch)
                    }
                }
                #expect(try batchWalks.route(owner, walkID: batched.walkID) == route)
                #expect(try allEntries(batchWalks, owner, batched.walkID) == entries)
            }
        }
        let route = try batchWalks.route(owner, walkID: batched.walkID)
        #expect(route == (try walks.route(owner, walkID: single.walkID)))
        #expect(try allEntries(batchWalks, owner, batched.walkID) == allEntries(walks, owner, single.walkID))
        #expect(route.count > 100, "a long walk")
        if seed == 3 { #expect(route.count == maximumPoints) }
        #expect(route.map(\.recordedAt) == route.map(\.recordedAt).sorted())
        #expect(Set(route.map(\.recordedAt)).count == route.count, "no two accepted points share a time")
    }

    /// Times that break the rules refuse the whole batch, naming the first bad point,
    /// before anything is written; a time finer than the millisecond is cut to it.
    @Test func badTimesRefuseTheWholeBatch() throws {
        let walks = walks()
        let owner = try fixture.user("timekeeper")
        let walk = try walks.start(owner)
        let now = clock.now
        func point(_ step: Int, _ time: Date) -> RoutePoint {
            RoutePoint(point: WalkPoint(latitude: 40.7359 + Double(step) * 0.0015, longitude: -73.9911), recordedAt: time)
        }
        let decreasing = [point(0, now), point(1, now + 1), point(2, now + 0.999)]
        #expect(throws: WalkError.recordedOutOfOrder(index: 2)) {
            try walks.addPoints(owner, walkID: walk.walkID, points: decreasing)
        }
        let future = [point(0, now), point(1, now + 300), point(2, now + 300.001)]
        #expect(throws: WalkError.recordedInTheFuture(index: 2)) {
            try walks.addPoints(owner, walkID: walk.walkID, points: future)
        }
        #expect(try walks.walk(owner, walkID: walk.walkID, limit: 5, cursor: nil).walk == walk)
        #expect(try walks.route(owner, walkID: walk.walkID).isEmpty)

        // Exactly five minutes ahead is allowed; equal times are not decreasing.
        let outcome = try walks.addPoints(owner, walkID: walk.walkID, points: [point(0, now), point(1, now), point(2, now + 300)])
        #expect(outcome.results.map(\.accepted) == [true, false, true], "the second is recorded no later than the first")
        #expect(outcome.walk.updatedAt == now + 300)
        #expect(outcome.walk.startedAt == walk.startedAt)
    }

    @Test func anotherUsersWalkIsNotFoundAndUntouched() throws {
        let walks = walks()
        let owner = try fixture.user("owner")
        let other = try fixture.user("other")
        let walk = try walks.start(owner)
        let points = [RoutePoint(point: WalkPoint(latitude: 40.7359, longitude: -73.9911), recordedAt: clock.now)]
        #expect(throws: WalkError.walkNotFound) { try walks.addPoints(other, walkID: walk.walkID, points: points) }
        #expect(throws: WalkError.walkNotFound) { try walks.addPoints(owner, walkID: "AAAAAAAAAAAAAAAAAAAAAA", points: points) }
        #expect(try walks.route(owner, walkID: walk.walkID).isEmpty)
    }
}
