import Basics
import Descriptors
import Glibc

/// The advisory lock (flock(2)) on a data directory that keeps `restore` and servers
/// apart: every SQLite store of the directory holds it shared for its whole life, and
/// `restore` holds it exclusively while it replaces `accounts.sqlite`. So a restore
/// refuses a directory a server runs on, and a server does not start on one being
/// restored. The lock belongs to the open folder and goes with its descriptor, so a
/// killed process leaves none behind.
///
/// flock on the folder, not fcntl on the database: SQLite's own locks on the file are
/// fcntl locks, which are per process and dropped when any descriptor of the file in
/// the process closes (https://sqlite.org/howtocorrupt.html, "POSIX advisory locks
/// canceled by a separate thread doing close()"); flock touches none of them.
final class DataDirectoryLock: Sendable {
    enum Kind {
        case shared
        case exclusive
    }

    private let folder: FileDescriptor

    private init(folder: FileDescriptor) {
        self.folder = folder
    }

    /// Takes the lock on `directory` without waiting; nil when another process (or
    /// another open of the folder) holds a lock that conflicts with `kind`.
    static func acquire(_ kind: Kind, directory: String) throws(SystemCallError) -> DataDirectoryLock? {
        let raw = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard raw >= 0 else { throw SystemCallError(name: "open \(directory)", errno: errno) }
        let folder = FileDescriptor(raw)
        let operation = (kind == .shared ? LOCK_SH : LOCK_EX) | LOCK_NB
        while flock(folder.rawValue, operation) != 0 {
            switch errno {
            case EINTR: continue
            case EWOULDBLOCK: return nil
            case let code: throw SystemCallError(name: "flock \(directory)", errno: code)
            }
        }
        return DataDirectoryLock(folder: folder)
    }
}
