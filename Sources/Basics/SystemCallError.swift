import Glibc

/// A system call that failed: its name and the `errno` it set (or, for pthreads, returned),
/// so a message says exactly what the kernel refused.
public struct SystemCallError: Error, Sendable, Equatable, CustomStringConvertible {
    public let name: String
    public let errno: Int32

    public init(name: String, errno: Int32) {
        self.name = name
        self.errno = errno
    }

    public var description: String {
        "\(name) failed: \(String(cString: strerror(errno))) (errno \(errno))"
    }
}
