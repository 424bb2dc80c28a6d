import Accounts
import ArgumentParser
import Foundation

/// Where the server keeps its databases and reads its source data.
struct StorageOptions: ParsableArguments {
    @Option(help: "Folder for the SQLite databases (catalog, accounts); created if missing.")
    var dataDir = "./var"

    @Option(help: "Folder with the catalog source files and common-passwords.txt.")
    var sourceDir = "./Data"

    @Option(
        help: """
            PostgreSQL URL (postgresql://user@host:port/database) for the user data, shared by several \
            instances. Default: $DATABASE_URL, else SQLite in --data-dir. The catalog stays local.
            """)
    var databaseURL: String?

    @Option(help: "Connections to PostgreSQL this instance keeps at most.")
    var databasePoolSize = PostgresUserDataStore.defaultPoolSize

    /// `--database-url`, else a non-empty `DATABASE_URL`, else nil (SQLite).
    var resolvedDatabaseURL: String? {
        if let databaseURL { return databaseURL }
        guard let text = ProcessInfo.processInfo.environment["DATABASE_URL"], !text.isEmpty else { return nil }
        return text
    }

    func validate() throws {
        if let url = resolvedDatabaseURL, !Self.isPostgresURL(url) {
            throw ValidationError("the database URL must start with postgresql:// or postgres://")
        }
        guard (1...256).contains(databasePoolSize) else {
            throw ValidationError("database-pool-size must be 1...256, got \(databasePoolSize)")
        }
    }

    static func isPostgresURL(_ url: String) -> Bool {
        url.hasPrefix("postgresql://") || url.hasPrefix("postgres://")
    }
}
