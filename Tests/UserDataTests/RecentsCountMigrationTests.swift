import SQLite
import Testing
import TestSupport

@testable import UserData

/// Migration 8 adds `users.recents_count` and fills it with the length of each user's
/// recently viewed list as it stood, so that lists viewed before it keep their capacity.
@Suite struct RecentsCountMigrationTests {
    @Test func eachUserIsGivenTheLengthOfTheirList() throws {
        let directory = try TemporaryDirectory(prefix: "recents-count")
        let connection = try SQLiteConnection(path: directory.file("accounts.sqlite"))
        let migrations = SQLiteUserDataSchema.migrator.migrations
        try Migrator(migrations: Array(migrations.prefix(7))).migrate(connection)

        var users: [(id: Int64, views: Int)] = []
        for (name, views) in [("none", 0), ("some", 3), ("full", 100)] {
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
}
