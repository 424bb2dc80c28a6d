import Basics
import SQLite

/// Why the disk copy could not be opened.
public enum ImageCopyError: Error, Sendable, CustomStringConvertible {
    /// Another process (a server, or `past-nyc images prefetch`) holds the copy.
    case inUse(directory: String)
    case system(SystemCallError)
    case index(SQLiteError)

    public var description: String {
        switch self {
        case .inUse(let directory):
            "the image copy in \(directory) is in use by another past-nyc process (a server or a prefetch): stop it first"
        case .system(let error): "the image copy: \(error)"
        case .index(let error): "the image copy's index: \(error)"
        }
    }
}
