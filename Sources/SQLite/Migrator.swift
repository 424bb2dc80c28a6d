/// Schema migrations versioned with `PRAGMA user_version`
/// (https://sqlite.org/pragma.html#pragma_user_version).
///
/// Migration `i` (0-based) brings the schema from version `i` to `i + 1`; each runs
/// in its own transaction together with the version bump, so a crash leaves the
/// schema at a whole version.
public struct Migrator: Sendable {
    public let migrations: [String]

    public init(migrations: [String]) {
        self.migrations = migrations
    }

    public enum MigrationError: Error, Equatable {
        /// The file was written by a newer build than this one.
        case databaseIsNewer(version: Int, known: Int)
    }

    /// Applies the migrations the database lacks; returns the resulting version.
    @discardableResult
    public func migrate(_ connection: SQLiteConnection) throws -> Int {
        let current = try connection.queryFirst("PRAGMA user_version") { $0.int(0) } ?? 0
        guard current <= migrations.count else {
            throw MigrationError.databaseIsNewer(version: current, known: migrations.count)
        }
        for version in current..<migrations.count {
            try connection.transaction(.immediate) {
                try connection.execute(migrations[version])
                try connection.execute("PRAGMA user_version = \(version + 1)")
            }
        }
        return migrations.count
    }
}
