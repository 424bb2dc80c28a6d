/// Why `past-nyc backup` or `restore` stopped; each names the file, folder or tool at
/// fault. Whatever a backup or restore refuses, it refuses before changing anything.
public enum UserDataBackupError: Error, Equatable, CustomStringConvertible {
    /// The user data to back up, or the backup to restore, is not there.
    case sourceMissing(path: String)
    /// The folder the backup should be written into does not exist.
    case targetFolderMissing(path: String)
    /// The restore's target already holds user data and was not told to replace it.
    case targetNotEmpty(String)
    /// A server holds the data directory open (its shared lock).
    case serverRunning(dataDirectory: String)
    /// The file is not a sound SQLite database of user data this build can open.
    case notUserData(path: String, reason: String)
    /// `pg_dump` or `pg_restore` is not on PATH.
    case toolMissing(name: String)
    /// `pg_dump` or `pg_restore` exited with a failure; `output` is what it wrote to stderr.
    case toolFailed(name: String, status: Int32, output: String)

    public var description: String {
        switch self {
        case .sourceMissing(let path): "there is nothing at \(path)"
        case .targetFolderMissing(let path): "there is no folder \(path) to write the backup into"
        case .targetNotEmpty(let what): "\(what) already holds user data; pass --replace to overwrite it"
        case .serverRunning(let directory):
            "a past-nyc server is running on \(directory): stop it before restoring"
        case .notUserData(let path, let reason): "\(path) is not a sound backup of the user data: \(reason)"
        case .toolMissing(let name):
            "\(name) is not on PATH: install the PostgreSQL client tools of the server's major version"
        case .toolFailed(let name, let status, let output): "\(name) failed (exit status \(status)): \(output)"
        }
    }
}
