import Postgres
import SQLite
import Testing
import TestSupport

@testable import UserData

/// The migration of the per-user quotas (SQLite's 9th) fills `users.favorites_count`
/// and `users.walks_count` with what each user keeps as it stood, and leaves every user
/// live (`deleted_at` NULL); PostgreSQL's also replaces `save_favorite` by one that keeps
/// the count.
@Suite struct QuotaCountsMigrationTests {
    /// Users with 0, 3 and 20 favorites, and as many walks as a third of them.
    static let kept = [("none", 0), ("some", 3), ("many", 20)]

    @Test func eachUserIsGivenTheirCountsOnSQLite() throws {
        let directory = try TemporaryDirectory(prefix: "quota-counts")
        let connection = try SQLiteConnection(path: directory.file("accounts.sqlite"))
        let migrations = SQLiteUserDataSchema.migrator.migrations
        let countsMigration = try #require(migrations.firstIndex { $0.contains("ADD COLUMN favorites_count") })
        try Migrator(migrations: Array(migrations.prefix(countsMigration))).migrate(connection)
        for (name, favorites) in Self.kept {
            try connection.execute(
                "INSERT INTO users (username, username_key, password_hash, created_at) VALUES (?, ?, 'not a hash', 0)",
                [.text(name), .text(name)])
            let id = connection.lastInsertRowID
            for index in 0..<favorites {
                try connection.execute(
                    "INSERT INTO favorites (user_id, photo_id, saved_at) VALUES (?, ?, 0)", [.integer(id), .text("p\(index)")])
            }
            for index in 0..<(favorites / 3) {
                try connection.execute(
                    "INSERT INTO walks (walk_id, user_id, started_at, updated_at) VALUES (?, ?, 0, 0)",
                    [.blob(Array("\(name)-\(index)".utf8)), .integer(id)])
            }
        }

        try SQLiteUserDataSchema.migrator.migrate(connection)

        for (name, favorites) in Self.kept {
            let row = try connection.queryFirst(
                "SELECT favorites_count, walks_count, deleted_at IS NULL FROM users WHERE username = ?", [.text(name)]
            ) { [$0.int(0), $0.int(1), $0.int(2)] }
            #expect(row == [favorites, favorites / 3, 1], "\(name)")
        }
    }

    @Test(.enabled(if: TestDatabase.serverURL != nil, "needs PostgreSQL: set PAST_NYC_TEST_DATABASE_URL"))
    func eachUserIsGivenTheirCountsOnPostgreSQL() throws {
        let database = try #require(try TestDatabase.make())
        let connection = try PostgresConnection(url: database.url)
        let schema = PostgresUserDataSchema.migrator
        let countsMigration = try #require(schema.migrations.firstIndex { $0.contains("ADD COLUMN favorites_count") })
        let before = PostgresMigrator(migrations: Array(schema.migrations.prefix(countsMigration)), lockKey: schema.lockKey)
        _ = try before.migrate(connection)
        for (name, favorites) in Self.kept {
            try connection.execute(
                "INSERT INTO users (username, username_key, password_hash, created_at) VALUES ($1, $1, 'not a hash', 0)",
                [.text(name)])
            for index in 0..<favorites {
                try connection.execute(
                    "INSERT INTO favorites (user_id, photo_id, saved_at) SELECT id, $2, 0 FROM users WHERE username = $1",
                    [.text(name), .text("p\(index)")])
            }
            for index in 0..<(favorites / 3) {
                try connection.execute(
                    "INSERT INTO walks (walk_id, user_id, started_at, updated_at) SELECT convert_to($2, 'UTF8'), id, 0, 0 FROM users WHERE username = $1",
                    [.text(name), .text("\(name)-\(index)")])
            }
        }

        _ = try schema.migrate(connection)

        for (name, favorites) in Self.kept {
            let result = try connection.execute(
                "SELECT favorites_count, walks_count, deleted_at IS NULL FROM users WHERE username = $1", [.text(name)])
            #expect(result.text(row: 0, column: 0) == String(favorites))
            #expect(result.text(row: 0, column: 1) == String(favorites / 3))
            #expect(result.text(row: 0, column: 2) == "t")
        }
        // Only this test's schema: the other tests of the run keep theirs on the same server.
        let functions = try connection.execute(
            "SELECT count(*) FROM pg_proc WHERE proname = 'save_favorite' AND pronamespace = current_schema()::regnamespace")
        #expect(functions.text(row: 0, column: 0) == "1")
    }
}
