import Basics
import Descriptors
import Glibc

/// The exclusive advisory lock (flock(2)) on the image copy's folder, held by the one
/// process that writes the copy: a server or a prefetch. Its index in memory is the
/// truth of what the copy holds, so a second writer would make it lie. The lock goes
/// with its descriptor, so a killed process leaves none behind. flock, not fcntl, for
/// the reason `DataDirectoryLock` gives: SQLite's own fcntl locks live in the same folder.
final class ImageCopyLock: Sendable {
    private let folder: FileDescriptor

    /// Takes the lock without waiting; throws `inUse` when another process holds it.
    init(directory: String) throws(ImageCopyError) {
        let raw = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard raw >= 0 else { throw .system(SystemCallError(name: "open \(directory)", errno: errno)) }
        folder = FileDescriptor(raw)
        while flock(folder.rawValue, LOCK_EX | LOCK_NB) != 0 {
            switch errno {
            case EINTR: continue
            case EWOULDBLOCK: throw .inUse(directory: directory)
            case let code: throw .system(SystemCallError(name: "flock \(directory)", errno: code))
            }
        }
    }
}
