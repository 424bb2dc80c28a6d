import Postgres
import SQLite
import Testing
import TestSupport

@testable import UserData

/// The migration that adds `users.recents_count` (SQLite's 8th) fills it with the length of each user's recently viewed list as it stood, so
/// that lists viewed before it keep their capacity.
@Suite struct RecentsCountMigrationTests {
    /// Users with lists of 0, 3 and 100 views.
    static let views = [("none", 0), ("some", 3), ("full", 100)]

    @Test func eachUserIsGivenTheLengthOfTheirListOnSQLite() throws {
        let directory = try TemporaryDirectory(prefix: "recents-count")
        let connection = try SQLiteConnection(path: directory.file("accounts.sqlite"))
        let migrations = SQLiteUserDataSchema.migrator.migrations
        try Migrator(migrations: Array(migrations.prefix(7))).migrate(connection)

        var users: [(id: Int64, views: Int)] = []
        for (name, views) in Self.views {
            try connection.execute(
                "INSERT INTO users (username, username_key, password_hash, created_at) VALUES (?, ?, 'not a hash', 0)",
                [.text(name), .text(name)])
            users.append((connection.lastInsertRowID, views))
        }
        for user in users {
            for view in 0..<user.views {
                try connection.execute(
                    "INSERT INTO recents (user_id, photo_id, viewed_at) VALUES (?, ?, 0)", [.integer(user.id), .text("p\(view)")])
            }
        }

        try SQLiteUserDataSchema.migrator.migrate(connection)

        #expect(try connection.queryFirst("PRAGMA user_version") { $0.int(0) } == migrations.count)
        for user in users {
            let count = try connection.queryFirst("SELECT recents_count FROM users WHERE id = ?", [.integer(user.id)]) {
                $0.int(0)
            }
            #expect(count == user.views)
        }
        try connection.execute(
            "INSERT INTO users (username, username_key, password_hash, created_at) VALUES ('new', 'new', 'not a hash', 0)")
        #expect(try connection.queryFirst("SELECT recents_count FROM users WHERE username = 'new'") { $0.int(0) } == 0)
    }

    @Test(.enabled(if: TestDatabase.serverURL != nil, "needs PostgreSQL: set PAST_NYC_TEST_DATABASE_URL"))
    func eachUserIsGivenTheLengthOfTheirListOnPostgreSQL() throws {
        let database = try #require(try TestDatabase.make())
        let connection = try PostgresConnection(url: database.url)
        let schema = PostgresUserDataSchema.migrator
        let countsMigration = try #require(schema.migrations.firstIndex { $0.contains("ADD COLUMN recents_count") })
        let before = PostgresMigrator(migrations: Array(schema.migrations.prefix(countsMigration)), lockKey: schema.lockKey)
        _ = try before.migrate(connection)

        for (name, views) in Self.views {
            try connection.execute(
                "INSERT INTO users (username, username_key, password_hash, created_at) VALUES ($1, $1, 'not a hash', 0)",
                [.text(name)])
            for view in 0..<views {
                try connection.execute(
                    "INSERT INTO recents (user_id, photo_id, viewed_at) SELECT id, $2, 0 FROM users WHERE username = $1",
                    [.text(name), .text("p\(view)")])
            }
        }

        _ = try schema.migrate(connection)

        for (name, views) in Self.views {
            let result = try connection.execute("SELECT recents_count FROM users WHERE username = $1", [.text(name)])
            #expect(result.text(row: 0, column: 0) == String(views))
        }
    }
}
