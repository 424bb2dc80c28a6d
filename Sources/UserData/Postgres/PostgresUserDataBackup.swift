import Dispatch
import Foundation
import Postgres
import Synchronization

/// `past-nyc backup` and `restore` of the PostgreSQL store, by PostgreSQL's own tools
/// (https://www.postgresql.org/docs/current/app-pgdump.html): `pg_dump --format=custom`
/// of the schema that holds the user data (one snapshot: pg_dump reads in one
/// REPEATABLE READ transaction, while the instances go on writing), and `pg_restore`
/// in one transaction, so a restore lands whole or not at all. Both must be on PATH,
/// of the server's major version (pg_dump refuses a newer server).
///
/// The dump names its schema; a restore recreates the tables, functions and data in
/// that schema. The schema itself is created here when missing and left out of the
/// restore's list otherwise: `CREATE SCHEMA public` would fail on every database, which
/// has a `public` schema from the start.
enum PostgresUserDataBackup {
    /// Dumps the user data of the database at `url` to `path`.
    static func backup(url: String, to path: String) throws {
        try DurableFile.requireFolder(of: path)
        let schema = try connect(url).execute("SELECT current_schema()").text(row: 0, column: 0)
        let temporary = DurableFile.temporaryPath(beside: path)
        do {
            _ = try run("pg_dump", ["--format=custom", "--schema=\(schema)", "--file=\(temporary)", "--dbname=\(url)"])
            try DurableFile.place(temporary, at: path)
        } catch {
            try? DurableFile.remove(temporary)  // The dump's error is the one to report.
            throw error
        }
    }

    /// Restores the dump at `path` into the database at `url`; refuses one whose schema
    /// already holds users unless `replacing`, which drops the dump's objects first
    /// (`pg_restore --clean`).
    static func restore(from path: String, url: String, replacing: Bool) throws {
        guard FileManager.default.fileExists(atPath: path) else { throw UserDataBackupError.sourceMissing(path: path) }
        let contents = try run("pg_restore", ["--list", path])
        guard let schema = schemaName(inList: contents) else {
            throw UserDataBackupError.notUserData(path: path, reason: "the dump holds no schema")
        }
        let connection = try connect(url)
        let quoted = try connection.execute("SELECT quote_ident($1)", [.text(schema)]).text(row: 0, column: 0)
        let users = try connection.execute("SELECT to_regclass($1) IS NOT NULL", [.text(quoted + ".users")])
        if users.text(row: 0, column: 0) == "t", !replacing,
            try connection.execute("SELECT EXISTS (SELECT FROM \(quoted).users)").text(row: 0, column: 0) == "t"
        {
            throw UserDataBackupError.targetNotEmpty("the schema \(schema) of the database")
        }
        try connection.execute("CREATE SCHEMA IF NOT EXISTS \(quoted)")

        let list = DurableFile.temporaryPath(beside: NSTemporaryDirectory() + "/past-nyc-restore.list")
        defer { try? DurableFile.remove(list) }  // Best effort: a leftover list in the temporary folder harms nothing.
        try withoutSchemaEntries(contents).write(toFile: list, atomically: false, encoding: .utf8)
        _ = try run(
            "pg_restore",
            ["--single-transaction", "--no-owner", "--exit-on-error", "--use-list=\(list)", "--dbname=\(url)"]
                + (replacing ? ["--clean", "--if-exists"] : []) + [path])
    }

    /// The schema a `pg_restore --list` shows: its `SCHEMA - <name> <owner>` entry.
    static func schemaName(inList list: String) -> String? {
        for line in list.split(separator: "\n") where !line.hasPrefix(";") {
            let fields = line.split(separator: " ")
            if let index = fields.firstIndex(of: "SCHEMA"), index + 2 < fields.count, fields[index + 1] == "-" {
                return String(fields[index + 2])
            }
        }
        return nil
    }

    /// The list without the schema's own entries (the schema, and its comment and
    /// privileges): the schema exists by now, and belongs to whoever made it.
    static func withoutSchemaEntries(_ list: String) -> String {
        list.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            let fields = line.split(separator: " ")
            guard !line.hasPrefix(";"), let dash = fields.firstIndex(of: "-"), dash > 0, dash + 1 < fields.count else { return true }
            return fields[dash - 1] != "SCHEMA" && fields[dash + 1] != "SCHEMA"
        }.joined(separator: "\n")
    }

    private static func connect(_ url: String) throws -> PostgresConnection {
        do {
            return try PostgresConnection(url: url, connectTimeout: .seconds(10))
        } catch let error as PostgresError {
            throw UserDataError(error)
        }
    }

    /// Runs `tool` (found on PATH) with `arguments`; returns its standard output.
    private static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard
            let executable = directories.map({ "\($0)/\(tool)" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else { throw UserDataBackupError.toolMissing(name: tool) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Both pipes are drained while the tool runs, so neither fills and blocks it.
        let errorText = Mutex("")
        let drained = DispatchGroup()
        DispatchQueue.global().async(group: drained) {
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            errorText.withLock { $0 = text }
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        drained.wait()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw UserDataBackupError.toolFailed(
                name: tool, status: process.terminationStatus,
                output: errorText.withLock { $0 }.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return text
    }
}
