import Glibc

/// Why the server could not start or keep running. System call failures carry the
/// call's name and `errno`, so a log line says exactly what the kernel refused.
public enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A system call failed: its name and the `errno` it set.
    case systemCall(name: String, errno: Int32)
    /// The configured host is not an IPv4 address in dotted form.
    case invalidHost(String)
    /// `start()` was called on a server that is already running or was shut down.
    case notStartable
    /// A file region of a `StreamedBody` reached the end of its file early: the file
    /// holds `size` bytes, the region needed `needed`.
    case truncatedFile(path: String, size: Int, needed: Int)

    public var description: String {
        switch self {
        case .systemCall(let name, let code):
            "\(name) failed: \(String(cString: strerror(code))) (errno \(code))"
        case .invalidHost(let host):
            "invalid listen host \(host): expected an IPv4 address such as 127.0.0.1"
        case .notStartable:
            "the server was already started or shut down"
        case .truncatedFile(let path, let size, let needed):
            "\(path) holds \(size) bytes, fewer than the \(needed) its response needs"
        }
    }
}
