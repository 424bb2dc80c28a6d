import Glibc

/// A POSIX thread running a closure; `join()` waits for it. The server runs its event
/// loops and workers on threads of its own, so their blocking calls never starve Dispatch.
///
/// `Sendable`: a `pthread_t` is a plain handle; joining it from another thread is what it is for.
public struct NativeThread: Sendable {
    private let handle: pthread_t

    private final class Body {
        let name: String
        let run: () -> Void
        init(name: String, run: @escaping () -> Void) {
            self.name = name
            self.run = run
        }
    }

    /// Starts a thread called `name` (as `top -H` and debuggers show it; Linux keeps the
    /// first 15 bytes) that runs `run`.
    public static func spawn(name: String, _ run: @escaping @Sendable () -> Void) throws(SystemCallError) -> NativeThread {
        var handle = pthread_t()
        let body = Unmanaged.passRetained(Body(name: name, run: run)).toOpaque()
        let code = pthread_create(&handle, nil, { argument in
            let body = Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue()
            nameCurrentThread(body.name)
            body.run()
            return nil
        }, body)
        guard code == 0 else {
            Unmanaged<Body>.fromOpaque(body).release()
            throw SystemCallError(name: "pthread_create", errno: code)
        }
        return NativeThread(handle: handle)
    }

    public func join() {
        pthread_join(handle, nil)
    }

    /// Lets the thread free its resources when it ends, for a thread nobody will join: an
    /// ended thread that is neither joined nor detached keeps its stack for ever
    /// (ThreadSanitizer reports it as a thread leak).
    public func detach() {
        pthread_detach(handle)
    }
}

/// Names the calling thread through `/proc/thread-self/comm` (proc(5)): what
/// `pthread_setname_np` does, which Swift's Glibc module does not export. Best effort: a
/// thread without its name works the same, so a failure is not reported.
private func nameCurrentThread(_ name: String) {
    let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    let bytes = Array(name.utf8.prefix(15))
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
}
