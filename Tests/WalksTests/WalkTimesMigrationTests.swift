import Basics
import Catalog
import Foundation
import SQLite
import Testing
import TestSupport
import Walks

@testable import Accounts
@testable import UserData

/// A store written before walks' times were kept in milliseconds (schema version 4,
/// whole seconds) is migrated: every walk shows the same moments as before, and takes
/// batches after them.
@Suite(.enabled(if: TestDatabase.usesSQLite, "migrates an old accounts.sqlite: SQLite store only"))
struct WalkTimesMigrationTests {
    @Test func secondsBecomeTheSameMomentsInMilliseconds() throws {
        let directory = try TemporaryDirectory(prefix: "walk-times-migration")
        let started: Int64 = 1_793_534_400  // 2026-11-01T12:00:00Z
        let walkBytes = [UInt8](repeating: 7, count: 16)
        do {
            let connection = try SQLiteConnection(path: directory.file(SQLiteUserDataStore.fileName))
            try connection.execute("PRAGMA foreign_keys = ON")
            try Migrator(migrations: Array(SQLiteUserDataSchema.migrator.migrations.prefix(4))).migrate(connection)
            try connection.execute(
                "INSERT INTO users (username, username_key, password_hash, created_at) VALUES ('old', 'old', 'x', ?)",
                [.integer(started)])
            let userID = connection.lastInsertRowID
            try connection.execute(
                """
                INSERT INTO walks (walk_id, user_id, started_at, updated_at, point_count, photo_count)
                VALUES (?, ?, ?, ?, 1, 1)
                """,
                [.blob(walkBytes), .integer(userID), .integer(started), .integer(started + 60)])
            let walk = connection.lastInsertRowID
            try connection.execute(
                "INSERT INTO walk_points (walk, number, latitude, longitude, added_at) VALUES (?, 1, 40.7359, -73.9911, ?)",
                [.integer(walk), .integer(started + 60)])
            try connection.execute(
                """
                INSERT INTO walk_entries (walk, photo_id, point_number, distance_meters, added_at)
                VALUES (?, '705740f-a', 1, 12.5, ?)
                """,
                [.integer(walk), .integer(started + 60)])
        }

        let store = try SQLiteUserDataStore(dataDirectory: directory.path)
        let catalog = try SharedCatalog.catalog()
        let walks = Walks(database: store, catalog: { catalog }) { Date(timeIntervalSince1970: 1_793_538_000) }
        let owner = AuthenticatedUser(userID: 1, tokenHash: [])
        let walkID = Base64.url.encode(walkBytes)
        let page = try walks.walk(owner, walkID: walkID, limit: 5, cursor: nil)
        #expect(page.walk.startedAt == Date(timeIntervalSince1970: TimeInterval(started)))
        #expect(page.walk.updatedAt == Date(timeIntervalSince1970: TimeInterval(started + 60)))
        #expect(page.entries.map(\.addedAt) == [Date(timeIntervalSince1970: TimeInterval(started + 60))])
        #expect(try walks.route(owner, walkID: walkID).map(\.recordedAt) == [Date(timeIntervalSince1970: TimeInterval(started + 60))])

        // A point recorded in the same second as the old one is not after it; a millisecond later is.
        let point = WalkPoint(latitude: 40.7459, longitude: -73.9911)
        let same = RoutePoint(point: point, recordedAt: Date(timeIntervalSince1970: TimeInterval(started + 60)))
        let later = RoutePoint(point: point, recordedAt: Date(timeIntervalSince1970: TimeInterval(started + 60) + 0.001))
        let outcome = try walks.addPoints(owner, walkID: walkID, points: [same, later])
        #expect(outcome.results.map(\.accepted) == [false, true])
        #expect(outcome.walk.updatedAt == later.recordedAt)
        #expect(outcome.walk.startedAt == page.walk.startedAt)
    }
}
