import ArgumentParser
import UserData

/// `past-nyc restore`: puts a backup of `past-nyc backup` back, with the servers stopped.
struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Put a backup of the user data back (servers stopped); refuses a store holding user data unless --replace."
    )

    @Option(help: "The backup file, as `past-nyc backup` wrote it.")
    var from: String

    @Flag(help: "Replace the user data the target already holds (without it, such a target is refused).")
    var replace = false

    @OptionGroup var storage: StorageOptions

    func validate() throws {
        guard !from.isEmpty else { throw ValidationError("--from must name a backup file") }
    }

    func run() throws {
        try UserDataLocation(dataDirectory: storage.dataDir, databaseURL: storage.resolvedDatabaseURL)
            .restore(from: from, replacing: replace)
        print("user data restored from \(from)")
    }
}
