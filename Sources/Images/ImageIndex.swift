import SQLite

/// The disk copy's index, `images/index.sqlite`: one row per kept image, naming its
/// variant, its content's digest (which names its file), its size and dimensions, and
/// when it was last served. A row is written only after its file is durably in place,
/// and deleted before its file is removed, so every row names a whole file; a crash
/// between the two leaves at most a file without a row, which the next start removes.
///
/// WAL with `synchronous=NORMAL` (https://sqlite.org/pragma.html#pragma_synchronous): a
/// commit survives the process being killed; a power cut may lose the last few, which
/// again leaves files without rows, never rows without files.
///
/// Not `Sendable`: `ImageCopy` owns it behind a lock.
final class ImageIndex {
    struct Row {
        let key: String
        /// The content's SHA-256, the first 16 bytes in hex.
        let digest: String
        let bytes: Int
        let width: Int
        let height: Int
        /// The order in which images were last served: rising, never reused.
        let lastServed: Int64
    }

    private let connection: SQLiteConnection

    static let migrations = Migrator(migrations: [
        """
        CREATE TABLE images (
            variant TEXT PRIMARY KEY,
            digest TEXT NOT NULL,
            bytes INTEGER NOT NULL CHECK (bytes > 0),
            width INTEGER NOT NULL,
            height INTEGER NOT NULL,
            last_served INTEGER NOT NULL
        ) WITHOUT ROWID;
        """
    ])

    init(path: String) throws {
        connection = try SQLiteConnection(path: path)
        connection.setBusyTimeout(milliseconds: 5000)
        try connection.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")
        try Self.migrations.migrate(connection)
    }

    /// Every row, least recently served first.
    func rows() throws -> [Row] {
        try connection.query("SELECT variant, digest, bytes, width, height, last_served FROM images ORDER BY last_served") {
            Row(key: $0.text(0), digest: $0.text(1), bytes: $0.int(2), width: $0.int(3), height: $0.int(4), lastServed: $0.int64(5))
        }
    }

    /// In one transaction: drops the rows of `removed`, adds or replaces `added`, and
    /// writes down when the `served` images were last served.
    func update(adding added: Row?, removing removed: [String], served: [(key: String, lastServed: Int64)]) throws {
        try connection.transaction {
            for key in removed {
                try connection.execute("DELETE FROM images WHERE variant = ?", [.text(key)])
            }
            if let added {
                try connection.execute(
                    "INSERT OR REPLACE INTO images (variant, digest, bytes, width, height, last_served) VALUES (?, ?, ?, ?, ?, ?)",
                    [.text(added.key), .text(added.digest), .init(added.bytes), .init(added.width), .init(added.height), .integer(added.lastServed)])
            }
            for (key, lastServed) in served {
                try connection.execute("UPDATE images SET last_served = ? WHERE variant = ?", [.integer(lastServed), .text(key)])
            }
        }
    }
}
