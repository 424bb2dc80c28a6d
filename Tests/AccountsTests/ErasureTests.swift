import Accounts
import Basics
import Foundation
import Synchronization
import Testing
import TestSupport
import UserData

/// A reset and an account's deletion of a big account, on the store the tests run on:
/// several transactions of at most the slice's rows, other users' writes committing
/// between them, the change log telling what went, and a crash in the middle.
@Suite struct ErasureTests {
    /// Rows per slice in these tests: the 30,544 rows of `fill` take eight slices.
    static let sliceRows = 4_000

    /// What the erasure's observer saw, and what it does after a slice.
    final class Observer: Sendable {
        let slices = Mutex<[ErasureSlice]>([])
        let events = Mutex<[String]>([])
        /// Run after each slice, once; what it throws stops the erasure, as a crash would.
        let betweenSlices = Mutex<(@Sendable () throws -> Void)?>(nil)

        func saw(_ slice: ErasureSlice) throws {
            slices.withLock { $0.append(slice) }
            events.withLock { $0.append("slice") }
            let action = betweenSlices.withLock { $0.take() }
            try action?()
        }
    }

    struct SimulatedCrash: Error {}

    let observer = Observer()
    let harness: AccountsHarness

    init() throws {
        var options = AccountsHarness.Options()
        options.erasureSliceRows = Self.sliceRows
        options.afterErasureSlice = { [observer] in try observer.saw($0) }
        harness = try AccountsHarness(options)
    }

    /// Gives the user 10,000 favorites, 100 recents and 4 walks of 5,000 points, 100
    /// entries and 10 removed photos each, with their change-log rows and counts, as
    /// their writes would have left them (written in bulk: saving them one by one is
    /// what `FavoriteQuotaTests` does). Returns the walks' IDs.
    @discardableResult
    private func fill(_ user: AuthenticatedUser) throws -> [String] {
        let now = Int64(harness.clock.now.timeIntervalSince1970)
        let userID = UserDataValue.integer(user.userID)
        return try harness.accounts.database.write { connection in
            func numbered(_ count: Int, _ insert: String, _ values: [UserDataValue]) throws {
                try connection.execute(
                    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) " + insert,
                    [.integer(Int64(count))] + values)
            }
            try numbered(
                10_000, "INSERT INTO favorites (user_id, photo_id, saved_at) SELECT ?, 'f' || i, ? FROM n",
                [userID, .integer(now)])
            try numbered(
                100, "INSERT INTO recents (user_id, photo_id, viewed_at) SELECT ?, 'r' || i, ? FROM n",
                [userID, .integer(now)])
            for (table, kind) in [("favorites", "favorite"), ("recents", "recent")] {
                try connection.execute(
                    """
                    INSERT INTO sync_changes (user_id, kind, walk_id, photo_id, deleted, changed_at)
                    SELECT user_id, ?, ?, photo_id, 0, ? FROM \(table) WHERE user_id = ? ORDER BY sequence
                    """,
                    [.text(kind), .blob([]), .integer(now), userID])
            }
            var walkIDs: [String] = []
            for _ in 0..<4 {
                let walkID = (0..<16).map { _ in UInt8.random(in: 0...255) }
                let walk = try connection.queryFirst(
                    """
                    INSERT INTO walks (walk_id, user_id, started_at, updated_at, point_count, photo_count)
                    VALUES (?, ?, ?, ?, 5000, 100) RETURNING sequence
                    """,
                    [.blob(walkID), userID, .integer(now * 1000), .integer(now * 1000)]
                ) { $0.int64(0) }
                let sequence = UserDataValue.integer(try #require(walk))
                try numbered(
                    5_000,
                    "INSERT INTO walk_points (walk, number, latitude, longitude, added_at) SELECT ?, i, 40.7, -74.0, ? FROM n",
                    [sequence, .integer(now * 1000)])
                try numbered(
                    100,
                    """
                    INSERT INTO walk_entries (walk, photo_id, point_number, distance_meters, added_at)
                    SELECT ?, 'e' || i, i, 10.0, ? FROM n
                    """,
                    [sequence, .integer(now * 1000)])
                try numbered(10, "INSERT INTO walk_removed_photos (walk, photo_id) SELECT ?, 'x' || i FROM n", [sequence])
                try connection.execute(
                    "INSERT INTO sync_changes (user_id, kind, walk_id, photo_id, deleted, changed_at) VALUES (?, 'walk', ?, '', 0, ?)",
                    [userID, .blob(walkID), .integer(now)])
                try connection.execute(
                    """
                    INSERT INTO sync_changes (user_id, kind, walk_id, photo_id, deleted, changed_at)
                    SELECT ?, 'walkEntry', ?, photo_id, 0, ? FROM walk_entries WHERE walk = ? ORDER BY sequence
                    """,
                    [userID, .blob(walkID), .integer(now), sequence])
                walkIDs.append(Base64.url.encode(walkID))
            }
            try connection.execute(
                "UPDATE users SET favorites_count = 10000, recents_count = 100, walks_count = 4 WHERE id = ?", [userID])
            return walkIDs
        }
    }

    /// The user's rows in every table that holds user data, and their counts as kept.
    private func stored(_ userID: Int64) throws -> [String: Int] {
        try harness.accounts.database.read { connection in
            var rows: [String: Int] = [:]
            for table in ["favorites", "recents", "walks", "sync_changes", "tokens"] {
                rows[table] = try connection.queryFirst("SELECT count(*) FROM \(table) WHERE user_id = ?", [.integer(userID)]) {
                    $0.int(0)
                }
            }
            for table in ["walk_points", "walk_entries", "walk_removed_photos"] {
                rows[table] = try connection.queryFirst(
                    "SELECT count(*) FROM \(table) JOIN walks ON walks.sequence = \(table).walk WHERE walks.user_id = ?",
                    [.integer(userID)]
                ) { $0.int(0) }
            }
            try connection.queryFirst(
                "SELECT favorites_count, recents_count, walks_count FROM users WHERE id = ?", [.integer(userID)]
            ) { row in
                rows["favorites_count"] = row.int(0)
                rows["recents_count"] = row.int(1)
                rows["walks_count"] = row.int(2)
            }
            return rows
        }
    }

    @Test func aBigResetTakesSeveralSlicesAndTheChangeLogTellsEveryItemDeleted() throws {
        let token = try harness.register("hoarder")
        let user = try harness.accounts.sessions.authenticate(token: token)
        let walkIDs = try fill(user)
        let bystanderToken = try harness.register("bystander")
        let bystander = try harness.accounts.sessions.authenticate(token: bystanderToken)
        #expect(try harness.send(.put, "/favorites/p1", token: bystanderToken).status == 201)
        let before = try harness.accounts.changeLog.changes(user, since: nil, limit: 50_000)
        #expect(!before.more)

        #expect(try harness.send(.delete, "/users/me/data", token: token).status == 204)

        let slices = observer.slices.withLock { $0 }
        #expect(slices.count == 8)
        #expect(slices.allSatisfy { $0.userID == user.userID && $0.rows <= Self.sliceRows })
        #expect(slices.dropLast().allSatisfy { $0.rows == Self.sliceRows && !$0.finished })
        #expect(slices.last?.finished == true)
        // Every row of data, and the 400 change-log rows of the walks' entries.
        #expect(slices.map(\.rows).reduce(0, +) == 30_544 + 400)
        let left = try stored(user.userID)
        #expect(left.filter { $0.key != "sync_changes" && $0.key != "tokens" }.values.allSatisfy { $0 == 0 })
        #expect(left["tokens"] == 1)

        let after = try harness.accounts.changeLog.changes(user, since: before.next, limit: 50_000)
        let changes = after.changes
        #expect(!after.more)
        #expect(Set(changes.filter { $0.kind == .favorite && $0.deleted }.map(\.photoID)) == Set((1...10_000).map { "f\($0)" }))
        #expect(Set(changes.filter { $0.kind == .recent && $0.deleted }.map(\.photoID)) == Set((1...100).map { "r\($0)" }))
        #expect(Set(changes.filter { $0.kind == .walk && $0.deleted }.map(\.walkID)) == Set(walkIDs))
        #expect(changes.filter { $0.kind == .profile }.count == 1)
        #expect(changes.count == 10_000 + 100 + 4 + 1)
        #expect(try harness.accounts.changeLog.changes(user, since: nil, limit: 10).changes.map(\.kind) == [.profile])
        // The user keeps the account; the bystander keeps everything.
        #expect(try harness.send(.get, "/users/me", token: token).json["favoriteCount"] as? Int == 0)
        #expect(try harness.accounts.favorites.page(bystander, limit: 10, cursor: nil).favorites.map(\.photoID) == ["p1"])
    }

    /// The bystander's write, run after the first slice, commits before the erasure
    /// goes on: no slice holds the writer past its own transaction.
    @Test func anotherUsersWriteCommitsBetweenSlices() throws {
        let token = try harness.register("hoarder")
        try fill(try harness.accounts.sessions.authenticate(token: token))
        let bystander = try harness.accounts.sessions.authenticate(token: try harness.register("bystander"))
        let accounts = harness.accounts
        observer.betweenSlices.withLock {
            $0 = { [observer] in
                let saved = try Result.awaiting { accounts.favorites.save(bystander, photoID: "p9", completion: $0) }
                observer.events.withLock { $0.append(saved.created ? "bystander saved" : "bystander not saved") }
            }
        }
        #expect(try harness.send(.delete, "/users/me", json: ["password": "correct horse battery"], token: token).status == 204)
        let events = observer.events.withLock { $0 }
        #expect(events.prefix(3) == ["slice", "bystander saved", "slice"])
        #expect(events.filter { $0 == "slice" }.count == 11)
        #expect(try accounts.favorites.favorite(bystander, photoID: "p9").photoID == "p9")
    }

    @Test func anInterruptedDeletionStopsTheAccountAtOnceAndFinishesAtTheNextStart() throws {
        let token = try harness.register("leaver")
        let user = try harness.accounts.sessions.authenticate(token: token)
        try fill(user)
        let otherToken = try harness.login("leaver").token
        let bystanderToken = try harness.register("bystander")
        #expect(try harness.send(.put, "/favorites/p3", token: bystanderToken).status == 201)
        observer.betweenSlices.withLock { $0 = { throw SimulatedCrash() } }

        #expect(try harness.send(.delete, "/users/me", json: ["password": "correct horse battery"], token: token).status == 500)
        #expect(observer.slices.withLock { $0.count } == 1)
        // The account stopped working with the first transaction: every token, and the password.
        for presented in [token, otherToken] {
            #expect(try harness.send(.get, "/users/me", token: presented).status == 401)
            #expect(try harness.send(.put, "/favorites/p1", token: presented).status == 401)
        }
        #expect(try harness.login("leaver").status == 401)
        let halfway = try stored(user.userID)
        #expect(halfway["tokens"] == 0)
        #expect(halfway["favorites"] == 10_000 - Self.sliceRows)

        try harness.reopen()
        #expect(try harness.accounts.finishInterruptedDeletions() == 1)
        #expect(try stored(user.userID).values.allSatisfy { $0 == 0 })
        let users = try harness.accounts.database.read { connection in
            try connection.query("SELECT username FROM users ORDER BY id", []) { $0.text(0) }
        }
        #expect(users == ["bystander"])
        #expect(try harness.accounts.finishInterruptedDeletions() == 0)
        #expect(try harness.send(.get, "/favorites/p3", token: bystanderToken).status == 200)
        #expect(try harness.send(.post, "/users", json: ["username": "leaver", "password": "another horse battery"]).status == 201)
    }

    @Test func aResetThatACrashInterruptedIsFinishedBySendingItAgain() throws {
        let token = try harness.register("resetter")
        let user = try harness.accounts.sessions.authenticate(token: token)
        try fill(user)
        let before = try harness.accounts.changeLog.changes(user, since: nil, limit: 50_000)
        observer.betweenSlices.withLock { $0 = { throw SimulatedCrash() } }

        #expect(try harness.send(.delete, "/users/me/data", token: token).status == 500)
        let halfway = try stored(user.userID)
        #expect(halfway["favorites"] == 10_000 - Self.sliceRows)
        #expect(halfway["favorites_count"] == halfway["favorites"])

        #expect(try harness.send(.delete, "/users/me/data", token: token).status == 204)
        let left = try stored(user.userID)
        #expect(left["favorites"] == 0 && left["walk_points"] == 0 && left["walks_count"] == 0)
        let changes = try harness.accounts.changeLog.changes(user, since: before.next, limit: 50_000).changes
        #expect(changes.filter { $0.kind == .favorite && $0.deleted }.count == 10_000)
        #expect(changes.filter { $0.kind == .walk && $0.deleted }.count == 4)
        #expect(changes.filter { !$0.deleted && $0.kind != .profile }.isEmpty)
    }
}
