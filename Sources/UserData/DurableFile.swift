import Basics
import Descriptors
import Foundation
import Glibc

/// Puts a finished file in place so that the target path holds either what was there
/// before or the whole new file, even across a crash or power cut: the new file is
/// written beside the target under a temporary name, flushed (fsync), renamed over the
/// target (rename(2) replaces atomically), and the folder flushed so the rename itself
/// is durable (https://lwn.net/Articles/457667/).
enum DurableFile {
    /// A name beside `path` for the file that will replace it: hidden, and unique to
    /// this process.
    static func temporaryPath(beside path: String) -> String {
        let target = URL(fileURLWithPath: path)
        return target.deletingLastPathComponent().appendingPathComponent(
            ".\(target.lastPathComponent).partial-\(getpid())"
        ).path
    }

    /// Refuses a `path` whose folder is missing (a backup's target), before any work.
    static func requireFolder(of path: String) throws(UserDataBackupError) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw .targetFolderMissing(path: folder)
        }
    }

    /// Flushes `temporary`, renames it to `path`, and flushes the folder.
    static func place(_ temporary: String, at path: String) throws(SystemCallError) {
        try flush(temporary, flags: O_RDONLY)
        guard rename(temporary, path) == 0 else { throw SystemCallError(name: "rename \(temporary)", errno: errno) }
        try flush(URL(fileURLWithPath: path).deletingLastPathComponent().path, flags: O_RDONLY | O_DIRECTORY)
    }

    /// Removes `path` if it is there.
    static func remove(_ path: String) throws(SystemCallError) {
        guard unlink(path) == 0 || errno == ENOENT else { throw SystemCallError(name: "unlink \(path)", errno: errno) }
    }

    private static func flush(_ path: String, flags: Int32) throws(SystemCallError) {
        let raw = open(path, flags | O_CLOEXEC)
        guard raw >= 0 else { throw SystemCallError(name: "open \(path)", errno: errno) }
        let file = FileDescriptor(raw)
        guard fsync(file.rawValue) == 0 else { throw SystemCallError(name: "fsync \(path)", errno: errno) }
    }
}
