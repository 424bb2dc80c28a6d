import Accounts
import Catalog
import Dispatch
import Foundation
import Synchronization
import Testing
import TestSupport
import Walks

/// The store over a real accounts database and the real catalog: rules that the
/// HTTP tests cannot reach cheaply (a lowered cap on points), isolation between
/// users, and many writers at once sharing commits.
@Suite struct WalksStoreTests {
    let fixture: WalksFixture
    var accounts: Accounts { fixture.accounts }
    var catalog: PhotoCatalog { fixture.catalog }

    init() throws {
        fixture = try WalksFixture(prefix: "walks-tests")
    }

    /// A point `step` × 150 m north of Union Square.
    private func point(_ step: Int) -> WalkPoint {
        WalkPoint(latitude: 40.7359 + Double(step) * 0.00135, longitude: -73.9911)
    }

    @Test func aFullWalkRefusesAcceptablePointsOnly() throws {
        let walks = Walks(database: accounts.database, catalog: { catalog }, maximumPoints: 3)
        let owner = try fixture.user("full-walker")
        let walk = try walks.start(owner)
        for step in 0..<3 {
            guard case .accepted = try walks.addPoint(owner, walkID: walk.walkID, point: point(step)) else {
                Issue.record("point \(step) was not accepted")
                return
            }
        }
        #expect(throws: WalkError.walkFull(maximumPoints: 3)) {
            try walks.addPoint(owner, walkID: walk.walkID, point: point(3))
        }
        // Nearer than 100 m to the last point: rejected as ever, not refused.
        guard case .rejected(let unchanged) = try walks.addPoint(owner, walkID: walk.walkID, point: point(2)) else {
            Issue.record("a point on the last one was not rejected")
            return
        }
        #expect(unchanged.pointCount == 3)
        #expect(try walks.walk(owner, walkID: walk.walkID, limit: 10, cursor: nil).walk == unchanged)
    }

    @Test func anotherUsersWalkIsNotFoundAndUntouched() throws {
        let walks = Walks(database: accounts.database, catalog: { catalog })
        let owner = try fixture.user("owner")
        let other = try fixture.user("other")
        let walk = try walks.start(owner)
        guard case .accepted(_, let entry?) = try walks.addPoint(owner, walkID: walk.walkID, point: point(0)) else {
            Issue.record("Union Square has photos")
            return
        }
        #expect(throws: WalkError.walkNotFound) { try walks.addPoint(other, walkID: walk.walkID, point: point(1)) }
        #expect(throws: WalkError.walkNotFound) { try walks.walk(other, walkID: walk.walkID, limit: 5, cursor: nil) }
        #expect(throws: WalkError.walkNotFound) {
            try walks.removePhoto(other, walkID: walk.walkID, photoID: entry.photoID)
        }
        #expect(throws: WalkError.walkNotFound) { try walks.delete(other, walkID: walk.walkID) }
        #expect(try walks.walks(other, limit: 5, cursor: nil).walks.isEmpty)
        let page = try walks.walk(owner, walkID: walk.walkID, limit: 5, cursor: nil)
        #expect(page.walk.pointCount == 1)
        #expect(page.entries == [entry])
    }

    @Test func deletingTheUserDeletesTheirWalks() throws {
        let walks = Walks(database: accounts.database, catalog: { catalog })
        let owner = try fixture.user("leaving")
        let walk = try walks.start(owner)
        _ = try walks.addPoint(owner, walkID: walk.walkID, point: point(0))
        try accounts.deleteUser(owner, password: "walking the bowery", clientAddress: "192.0.2.1")
        let remaining = try accounts.database.read { connection in
            try ["walks", "walk_points", "walk_entries", "walk_removed_photos"].map { table in
                try connection.queryFirst("SELECT count(*) FROM \(table)") { $0.int(0) } ?? -1
            }
        }
        #expect(remaining == [0, 0, 0, 0])
    }

    /// Eight threads each walk their own walk as fast as they can, so their points
    /// share group commits: every walk ends with all its points, in its order, its
    /// distance the sum of its legs.
    @Test func concurrentWalksShareCommitsWithoutMixingUp() throws {
        let walks = Walks(database: accounts.database, catalog: { catalog })
        let owner = try fixture.user("busy")
        let started = try (0..<8).map { _ in try walks.start(owner) }
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: started.count) { index in
            for step in 0..<25 {
                // Each walk along its own meridian, 150 m a step.
                let point = WalkPoint(
                    latitude: 40.70 + Double(step) * 0.00135, longitude: -74.00 + Double(index) * 0.004)
                do {
                    guard case .accepted(let walk, _) = try walks.addPoint(owner, walkID: started[index].walkID, point: point),
                        walk.pointCount == step + 1
                    else {
                        failures.withLock { $0.append("walk \(index) point \(step) not accepted as number \(step + 1)") }
                        return
                    }
                } catch {
                    failures.withLock { $0.append("walk \(index) point \(step): \(error)") }
                    return
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        for (index, walk) in started.enumerated() {
            let stored = try walks.walk(owner, walkID: walk.walkID, limit: 200, cursor: nil)
            let legs = (1..<25).map { step in
                WalkOracle.haversine(
                    (40.70 + Double(step - 1) * 0.00135, -74.00 + Double(index) * 0.004),
                    (40.70 + Double(step) * 0.00135, -74.00 + Double(index) * 0.004))
            }
            #expect(stored.walk.pointCount == 25)
            #expect(abs(stored.walk.distanceMeters - legs.reduce(0, +)) < 1e-6)
            #expect(Set(stored.entries.map(\.photoID)).count == stored.entries.count)
            #expect(stored.entries.map(\.point.latitude) == stored.entries.map(\.point.latitude).sorted(by: >))
        }
    }

    /// Many writers on one walk: each point waits for the one before it on the walk's
    /// row, so every point is accepted once, under its own number, and no photo twice.
    @Test func manyWritersOnOneWalkTakeTurns() throws {
        let walks = Walks(database: accounts.database, catalog: { catalog })
        let owner = try fixture.user("crowd")
        let walk = try walks.start(owner)
        let numbers = Mutex<[Int]>([])
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { writer in
            for step in 0..<10 {
                // A grid of points at least 150 m from one another, so any order is accepted.
                let point = WalkPoint(
                    latitude: 40.70 + Double(step) * 0.00135, longitude: -74.00 + Double(writer) * 0.004)
                do {
                    guard case .accepted(let stored, _) = try walks.addPoint(owner, walkID: walk.walkID, point: point)
                    else {
                        failures.withLock { $0.append("writer \(writer) point \(step) rejected") }
                        continue
                    }
                    numbers.withLock { $0.append(stored.pointCount) }
                } catch {
                    failures.withLock { $0.append("writer \(writer) point \(step): \(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(numbers.withLock { $0 }.sorted() == Array(1...80))
        let stored = try walks.walk(owner, walkID: walk.walkID, limit: 200, cursor: nil)
        #expect(stored.walk.pointCount == 80)
        #expect(stored.walk.photoCount == stored.entries.count)
        #expect(Set(stored.entries.map(\.photoID)).count == stored.entries.count)
    }
}
