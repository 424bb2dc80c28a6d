import Foundation
import SQLite

/// `past-nyc backup` and `restore` of the SQLite store: `<data-dir>/accounts.sqlite`,
/// the user data. The catalog (`catalog.sqlite`) is not backed up: a server rebuilds it
/// from the source files.
///
/// A backup is SQLite's online backup of one moment (`SQLiteBackup`: one read
/// transaction on a connection of its own, so a running server's writers go on
/// meanwhile), written beside the target and put in place whole (`DurableFile`), after
/// `PRAGMA integrity_check` on the copy. The copy is one self-contained file in the
/// rollback-journal mode (no `-wal` beside it); a server turns it back to WAL.
enum SQLiteUserDataBackup {
    /// Pages copied per `sqlite3_backup_step` (4 MiB of 4 KiB pages): the copy goes in
    /// slices, so it can report progress and end between two of them.
    static let pagesPerStep: Int32 = 1024

    /// Copies the user data of `dataDirectory` to `path`.
    static func backup(dataDirectory: String, to path: String) throws {
        let source = dataDirectory + "/" + SQLiteUserDataStore.fileName
        guard FileManager.default.fileExists(atPath: source) else { throw UserDataBackupError.sourceMissing(path: source) }
        try DurableFile.requireFolder(of: path)
        try copy(from: source, into: path) { temporary in try verify(temporary, reportedAs: path) }
    }

    /// Puts the backup at `path` back as `<dataDirectory>/accounts.sqlite`, creating the
    /// folder if missing. Refuses a folder that already holds `accounts.sqlite` unless
    /// `replacing`, and a folder a server runs on, and checks the backup before it
    /// changes anything.
    static func restore(from path: String, dataDirectory: String, replacing: Bool) throws {
        guard FileManager.default.fileExists(atPath: path) else { throw UserDataBackupError.sourceMissing(path: path) }
        try verify(path, reportedAs: path)
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        // Held until the new file is in place: no server starts on the folder meanwhile.
        guard let lock = try DataDirectoryLock.acquire(.exclusive, directory: dataDirectory) else {
            throw UserDataBackupError.serverRunning(dataDirectory: dataDirectory)
        }
        try withExtendedLifetime(lock) {
            let target = dataDirectory + "/" + SQLiteUserDataStore.fileName
            if FileManager.default.fileExists(atPath: target) && !replacing {
                throw UserDataBackupError.targetNotEmpty(target)
            }
            try copy(from: path, into: target) { temporary in
                try verify(temporary, reportedAs: path)
                // The replaced file's journals must go before the new file arrives:
                // SQLite would otherwise apply the old file's WAL frames (or roll back
                // its hot journal) onto the new one (https://sqlite.org/howtocorrupt.html,
                // "Unlinking or renaming a database file while in use").
                // With no server running (the lock), only a crashed server leaves
                // them, holding writes of the data being replaced.
                for suffix in ["-wal", "-shm", "-journal"] { try DurableFile.remove(target + suffix) }
            }
        }
    }

    /// Copies the database `source` by the backup API into a temporary file beside
    /// `target`, runs `check` on it, and puts it in place; removes the temporary file
    /// on failure.
    private static func copy(from source: String, into target: String, check: (String) throws -> Void) throws {
        let temporary = DurableFile.temporaryPath(beside: target)
        try DurableFile.remove(temporary)
        do {
            do {
                let backup = try SQLiteBackup(sourcePath: source, destinationPath: temporary)
                while try !backup.step(pages: pagesPerStep) {}
                try backup.finish()
                try backup.copy.execute("PRAGMA journal_mode = DELETE")
            }
            try check(temporary)
            try DurableFile.place(temporary, at: target)
        } catch {
            // The copy's error is the one to report; a leftover is replaced by the next run.
            for suffix in ["", "-journal", "-wal", "-shm"] { try? DurableFile.remove(temporary + suffix) }
            throw error
        }
    }

    /// Refuses a file that fails `PRAGMA integrity_check` or whose schema this build
    /// cannot migrate (https://sqlite.org/pragma.html#pragma_integrity_check).
    private static func verify(_ path: String, reportedAs name: String) throws {
        do {
            let database = try SQLiteConnection(path: path, mode: .readOnly)
            let problems = try database.query("PRAGMA integrity_check") { $0.text(0) }
            guard problems == ["ok"] else {
                throw UserDataBackupError.notUserData(path: name, reason: problems.prefix(5).joined(separator: "; "))
            }
            let version = try database.queryFirst("PRAGMA user_version") { $0.int(0) } ?? 0
            let known = SQLiteUserDataSchema.migrator.migrations.count
            guard (1...known).contains(version) else {
                throw UserDataBackupError.notUserData(
                    path: name, reason: "its schema version is \(version); this build knows versions 1 to \(known)")
            }
        } catch let error as SQLiteError {
            throw UserDataBackupError.notUserData(path: name, reason: error.description)
        }
    }
}
