import Accounts
import ArgumentParser
import UserData

/// `past-nyc copy-user-data`: moves an instance's SQLite user data (accounts, tokens,
/// favorites, recents, walks) into PostgreSQL, before serving with `--database-url`.
struct CopyUserDataCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy-user-data",
        abstract: "Copy the user data of a SQLite data directory into PostgreSQL."
    )

    @Option(help: "Data directory holding accounts.sqlite.")
    var from: String

    @Option(help: "PostgreSQL URL of the target (postgresql://user@host:port/database).")
    var to: String

    @Flag(help: "Replace the users a non-empty target already holds (without it, such a target is refused).")
    var replace = false

    func validate() throws {
        guard StorageOptions.isPostgresURL(to) else {
            throw ValidationError("--to must start with postgresql:// or postgres://")
        }
    }

    func run() throws {
        for (table, rows) in try UserDataCopy.copy(fromDataDirectory: from, to: to, replacing: replace) {
            print("\(table): \(rows) rows")
        }
    }
}
