import Glibc
import Synchronization

/// The one owner of an open file descriptor (a socket, a file, an epoll instance, an
/// eventfd): it closes the number exactly once, at `close()` or when the last reference
/// goes, whichever comes first. A number closed twice is a bug that hides well: the
/// second `close` may hit a descriptor the kernel has meanwhile handed to someone else.
///
/// `Sendable`: the number never changes and the open flag is atomic, so any thread may
/// close it (e.g. the server's listening socket, closed on the thread that stops it).
public final class FileDescriptor: Sendable {
    public let rawValue: Int32
    private let open = Atomic<Bool>(true)

    /// Takes ownership of `rawValue`, an open descriptor nobody else closes.
    public init(_ rawValue: Int32) {
        self.rawValue = rawValue
    }

    deinit {
        close()
    }

    /// Whether `close()` has not run yet.
    public var isOpen: Bool { open.load(ordering: .acquiring) }

    /// Closes the descriptor if it is still open; later calls do nothing.
    public func close() {
        guard open.exchange(false, ordering: .acquiringAndReleasing) else { return }
        // Linux frees the number even when close fails (EINTR included): never retry it.
        _ = Glibc.close(rawValue)
    }
}
