import ArgumentParser
import UserData

/// `past-nyc backup`: a copy of the user data as it was at one moment, taken while
/// servers run on it (the catalog is not in it: it is rebuilt from the source files).
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the user data, while servers run, into a file (SQLite: a database file; PostgreSQL: a pg_dump archive)."
    )

    @Option(help: "The backup file to write; replaced whole once the copy is complete and checked.")
    var to: String

    @OptionGroup var storage: StorageOptions

    func validate() throws {
        guard !to.isEmpty, !to.hasSuffix("/") else { throw ValidationError("--to must name a file, got '\(to)'") }
    }

    func run() throws {
        let started = ContinuousClock.now
        try UserDataLocation(dataDirectory: storage.dataDir, databaseURL: storage.resolvedDatabaseURL).backup(to: to)
        print("user data backed up to \(to) in \(ContinuousClock.now - started)")
    }
}
