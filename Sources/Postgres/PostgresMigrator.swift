/// Schema migrations versioned in a one-row table, `schema_version`.
///
/// Migration `i` (0-based) brings the schema from version `i` to `i + 1`; each runs in
/// its own transaction together with the version bump, so a crash leaves the schema
/// at a whole version. The whole run holds a session advisory lock
/// (https://www.postgresql.org/docs/current/explicit-locking.html#ADVISORY-LOCKS), so
/// instances starting at once migrate one after the other: the second finds the work
/// done.
public struct PostgresMigrator: Sendable {
    public let migrations: [String]
    /// The advisory lock's key, the same for every instance of the application.
    public let lockKey: Int64

    public init(migrations: [String], lockKey: Int64) {
        self.migrations = migrations
        self.lockKey = lockKey
    }

    public enum MigrationError: Error, Equatable {
        /// The database was migrated by a newer build than this one.
        case databaseIsNewer(version: Int, known: Int)
    }

    /// Applies the migrations the database lacks; returns the resulting version.
    @discardableResult
    public func migrate(_ connection: PostgresConnection) throws -> Int {
        try connection.execute("SELECT pg_advisory_lock($1)", [.integer(lockKey)])
        defer { _ = try? connection.execute("SELECT pg_advisory_unlock($1)", [.integer(lockKey)]) }
        try connection.execute("CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)")
        let versions = try connection.execute("SELECT version FROM schema_version")
        if versions.rowCount == 0 {
            try connection.execute("INSERT INTO schema_version (version) VALUES (0)")
        }
        let current = versions.rowCount == 0 ? 0 : Int(versions.text(row: 0, column: 0)) ?? 0
        guard current <= migrations.count else {
            throw MigrationError.databaseIsNewer(version: current, known: migrations.count)
        }
        for version in current..<migrations.count {
            try connection.execute("BEGIN")
            do {
                try connection.executeScript(migrations[version])
                try connection.execute("UPDATE schema_version SET version = $1", [.integer(Int64(version + 1))])
                try connection.execute("COMMIT")
            } catch {
                _ = try? connection.execute("ROLLBACK")
                throw error
            }
        }
        return migrations.count
    }
}
