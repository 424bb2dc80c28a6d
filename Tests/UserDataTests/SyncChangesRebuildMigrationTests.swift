import SQLite
import Testing
import TestSupport

@testable import UserData

/// Migration 7 copies `sync_changes` into a table whose CHECK on `kind` is a chain of
/// equalities (an `IN` list built a temporary B-tree at every insert). A database at
/// migration 6 with logged changes keeps every row, its sequences and AUTOINCREMENT's
/// high-water mark, and refuses the same kinds as before.
@Suite struct SyncChangesRebuildMigrationTests {
    @Test func everyRowSequenceAndTheHighWaterMarkSurviveTheRebuild() throws {
        let directory = try TemporaryDirectory(prefix: "sync-changes-rebuild")
        let connection = try SQLiteConnection(path: directory.file("accounts.sqlite"))
        try connection.execute("PRAGMA foreign_keys = ON")
        let migrations = SQLiteUserDataSchema.migrator.migrations
        try Migrator(migrations: Array(migrations.prefix(6))).migrate(connection)

        try connection.execute(
            "INSERT INTO users (username, username_key, password_hash, created_at) VALUES ('a', 'a', 'not a hash', 1700000000)")
        let user = SQLiteValue.integer(connection.lastInsertRowID)
        let kinds = ["favorite", "recent", "walk", "walkEntry", "profile"]
        for (offset, kind) in kinds.enumerated() {
            try connection.execute(
                "INSERT INTO sync_changes (user_id, kind, walk_id, photo_id, deleted, changed_at) VALUES (?, ?, ?, ?, ?, ?)",
                [user, .text(kind), .blob([UInt8(offset)]), .text("photo-\(offset)"), .integer(Int64(offset % 2)),
                 .integer(1_700_000_000 + Int64(offset))])
        }
        // The highest sequence deleted: only sqlite_sequence remembers it was handed out.
        try connection.execute("DELETE FROM sync_changes WHERE sequence = (SELECT max(sequence) FROM sync_changes)")
        let rowsBefore = try Self.rows(in: connection)
        let highWaterMark = try #require(try Self.highWaterMark(in: connection))
        #expect(rowsBefore.count == kinds.count - 1)
        #expect(highWaterMark > rowsBefore.map(\.sequence).max() ?? 0)

        try SQLiteUserDataSchema.migrator.migrate(connection)

        #expect(try connection.queryFirst("PRAGMA user_version") { $0.int(0) } == migrations.count)
        #expect(try Self.rows(in: connection) == rowsBefore)
        #expect(try Self.highWaterMark(in: connection) == highWaterMark)
        try connection.execute(
            "INSERT INTO sync_changes (user_id, kind, walk_id, photo_id, deleted, changed_at) VALUES (?, 'profile', x'', 'next', 0, 0)",
            [user])
        #expect(connection.lastInsertRowID == highWaterMark + 1, "a sequence once handed out is not handed out again")

        // The same rules as before: the kinds, the UNIQUE key, the user's foreign key.
        #expect(throws: SQLiteError.self) {
            try connection.execute(
                "INSERT INTO sync_changes (user_id, kind, walk_id, photo_id, deleted, changed_at) VALUES (?, 'Favorite', x'', 'x', 0, 0)",
                [user])
        }
        #expect(throws: SQLiteError.self) {
            try connection.execute(
                "INSERT INTO sync_changes (user_id, kind, walk_id, photo_id, deleted, changed_at) VALUES (?, 'profile', x'', 'next', 0, 0)",
                [user])
        }
        #expect(throws: SQLiteError.self) {
            try connection.execute(
                "INSERT INTO sync_changes (user_id, kind, walk_id, photo_id, deleted, changed_at) VALUES (999, 'profile', x'', '', 0, 0)")
        }
        let indexes = try connection.query(
            "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'sync_changes' AND sql IS NOT NULL ORDER BY name"
        ) { $0.text(0) }
        #expect(indexes == ["sync_changes_by_user", "sync_changes_tombstones"])
        try connection.execute("DELETE FROM users")
        #expect(try connection.queryFirst("SELECT count(*) FROM sync_changes") { $0.int(0) } == 0, "the cascade still reaches it")
    }

    /// Why the table was rebuilt: an insert builds no temporary B-tree any more.
    @Test func anInsertOpensNoEphemeralTable() throws {
        let directory = try TemporaryDirectory(prefix: "sync-changes-rebuild")
        let connection = try SQLiteConnection(path: directory.file("accounts.sqlite"))
        try SQLiteUserDataSchema.migrator.migrate(connection)
        let opcodes = try connection.query(
            "EXPLAIN INSERT INTO sync_changes (user_id, kind, walk_id, photo_id, deleted, changed_at) VALUES (1, 'favorite', x'', 'p', 0, 0)"
        ) { $0.text(1) }
        #expect(opcodes.contains("NewRowid"))
        #expect(!opcodes.contains("OpenEphemeral"))
    }

    private struct LoggedRow: Equatable {
        let sequence: Int64
        let kind: String
        let walkID: [UInt8]
        let photoID: String
        let deleted: Int64
        let changedAt: Int64
    }

    private static func rows(in connection: SQLiteConnection) throws -> [LoggedRow] {
        try connection.query("SELECT sequence, kind, walk_id, photo_id, deleted, changed_at FROM sync_changes ORDER BY sequence") {
            LoggedRow(
                sequence: $0.int64(0), kind: $0.text(1), walkID: $0.blob(2), photoID: $0.text(3), deleted: $0.int64(4),
                changedAt: $0.int64(5))
        }
    }

    private static func highWaterMark(in connection: SQLiteConnection) throws -> Int64? {
        try connection.queryFirst("SELECT seq FROM sqlite_sequence WHERE name = 'sync_changes'") { $0.int64(0) }
    }
}
