import Foundation

/// `past-nyc copy-user-data`: moves the user data of an instance's SQLite store into
/// PostgreSQL, row for row, keeping every ID and sequence, so tokens, walk IDs and
/// pagination cursors issued by the old instance keep working.
///
/// The copy is one transaction: it lands whole or not at all. A target that already
/// holds users is refused unless `replacing`, which empties it first; so running the
/// same copy again with `replacing` gives the same result (idempotent).
public enum UserDataCopy {
    public enum CopyError: Error, Equatable, CustomStringConvertible {
        /// The target already holds users and the copy was not told to replace them.
        case targetNotEmpty(users: Int)
        /// The data directory has no `accounts.sqlite`.
        case sourceMissing(path: String)

        public var description: String {
            switch self {
            case .sourceMissing(let path):
                "there is no user data to copy at \(path)"
            case .targetNotEmpty(let users):
                "the target database already holds \(users) users; pass --replace to overwrite them"
            }
        }
    }

    /// Copies `<dataDirectory>/accounts.sqlite` (migrated first, if older) into the
    /// PostgreSQL database at `url` (migrated too). Returns the rows copied per table.
    public static func copy(fromDataDirectory dataDirectory: String, to url: String, replacing: Bool) throws -> [(
        table: String, rows: Int
    )] {
        let path = dataDirectory + "/" + SQLiteUserDataStore.fileName
        guard FileManager.default.fileExists(atPath: path) else { throw CopyError.sourceMissing(path: path) }
        let source = try SQLiteUserDataStore(dataDirectory: dataDirectory)
        let target = try PostgresUserDataStore(url: url, poolSize: 1)
        let tables = PostgresUserDataSchema.tables
        let contents = try source.read { connection in
            try connection.snapshot {
                try tables.map { table in
                    try connection.query(
                        "SELECT \(table.columns.map(\.name).joined(separator: ", ")) FROM \(table.name)", []
                    ) { row in
                        table.columns.indices.map { index in value(row, column: Int32(index), kind: table.columns[index].kind) }
                    }
                }
            }
        }
        try target.write { connection in
            let users = try connection.queryFirst("SELECT count(*) FROM users", []) { $0.int(0) } ?? 0
            if users > 0 {
                guard replacing else { throw CopyError.targetNotEmpty(users: users) }
                // The tables no user's row cascades to: the feedback (which names its
                // author and decider) before the users, the corrections, the lock rows.
                try connection.execute("DELETE FROM feedback", [])
                try connection.execute("DELETE FROM feedback_photos", [])
                try connection.execute("DELETE FROM catalog_corrections", [])
                try connection.execute("DELETE FROM users", [])
                try connection.execute("DELETE FROM login_failures", [])
                try connection.execute("DELETE FROM registrations", [])
            }
            for (table, rows) in zip(tables, contents) {
                let columns = table.columns.map(\.name).joined(separator: ", ")
                let placeholders = Array(repeating: "?", count: table.columns.count).joined(separator: ", ")
                for row in rows {
                    try connection.execute("INSERT INTO \(table.name) (\(columns)) VALUES (\(placeholders))", row)
                }
                if let identity = table.identity {
                    // New rows continue after the copied ones.
                    _ = try connection.queryFirst(
                        """
                        SELECT setval(pg_get_serial_sequence(?, ?),
                            coalesce((SELECT max(\(identity)) FROM \(table.name)), 0) + 1, false)
                        """,
                        [.text(table.name), .text(identity)]
                    ) { $0.int64(0) }
                }
            }
        }
        return zip(tables, contents).map { ($0.name, $1.count) }
    }

    private static func value(_ row: any UserDataRow, column: Int32, kind: PostgresUserDataSchema.ColumnKind) -> UserDataValue {
        guard !row.isNull(column) else { return .null }
        switch kind {
        case .integer: return .integer(row.int64(column))
        case .real: return .real(row.double(column))
        case .text: return .text(row.text(column))
        case .blob: return .blob(row.blob(column))
        }
    }
}
