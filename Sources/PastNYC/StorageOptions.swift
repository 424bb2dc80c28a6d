import API
import Accounts
import ArgumentParser
import Foundation
import UserData

/// Where the server keeps its databases and reads its source data.
struct StorageOptions: ParsableArguments {
    /// Names `--source-dir` when the option is not given.
    static let sourceDirectoryVariable = "PAST_NYC_SOURCE_DIR"

    @Option(help: "Folder for the SQLite databases (catalog, accounts); created if missing.")
    var dataDir = ApplicationConfiguration().dataDirectory

    @Option(
        help: """
            Folder with the catalog source files and common-passwords.txt (the repository's Data folder). \
            Default: $\(Self.sourceDirectoryVariable), else \(ApplicationConfiguration().sourceDirectory).
            """)
    var sourceDir: String?

    /// `--source-dir`, else `$PAST_NYC_SOURCE_DIR`, else `./Data`.
    var resolvedSourceDir: String {
        sourceDir ?? ProcessInfo.processInfo.environment[Self.sourceDirectoryVariable]
            ?? ApplicationConfiguration().sourceDirectory
    }

    /// Refuses, before anything starts, a source folder without `fileNames`: says which
    /// are missing, where it looked (a relative default depends on the current folder),
    /// and how to point at the right one.
    func requireSourceFiles(_ fileNames: [String]) throws {
        let directory = resolvedSourceDir
        let missing = fileNames.filter { !FileManager.default.isReadableFile(atPath: directory + "/" + $0) }
        guard !missing.isEmpty else { return }
        let absolute = URL(fileURLWithPath: directory).standardizedFileURL.path
        let origin =
            sourceDir != nil ? "--source-dir"
            : ProcessInfo.processInfo.environment[Self.sourceDirectoryVariable] != nil ? "$\(Self.sourceDirectoryVariable)"
            : "the default, relative to the current folder"
        throw ValidationError(
            "the source data folder \(directory) (\(absolute), from \(origin)) lacks "
                + missing.joined(separator: ", ")
                + ". Start past-nyc in the repository's root folder, or point --source-dir or the "
                + "\(Self.sourceDirectoryVariable) environment variable at the repository's Data folder.")
    }

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

    /// The user-data store these options name, for a command that reads or changes it
    /// beside running servers: one connection's worth of PostgreSQL pool. Opening it
    /// migrates the schema, as a server's start does; on SQLite it holds the data
    /// directory's shared lock, so `restore` cannot replace the file meanwhile.
    func openUserData() throws -> any UserDataStore {
        try UserDataLocation(dataDirectory: dataDir, databaseURL: resolvedDatabaseURL, poolSize: 1).openStore()
    }

    static func isPostgresURL(_ url: String) -> Bool {
        url.hasPrefix("postgresql://") || url.hasPrefix("postgres://")
    }
}
