import Glibc

/// A POSIX thread running a closure; `join()` waits for it. The server runs its event
/// loops and workers on threads of its own, so their blocking calls never starve Dispatch.
/// `Sendable`: a `pthread_t` is a plain number; joining it from another thread is what it is for.
struct NativeThread: Sendable {
    private let handle: pthread_t

    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    static func spawn(_ run: @escaping @Sendable () -> Void) throws(HTTPServerError) -> NativeThread {
        var handle = pthread_t()
        let body = Unmanaged.passRetained(Body(run)).toOpaque()
        let code = pthread_create(&handle, nil, { argument in
            let body = Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue()
            body.run()
            return nil
        }, body)
        guard code == 0 else {
            Unmanaged<Body>.fromOpaque(body).release()
            throw .systemCall(name: "pthread_create", errno: code)
        }
        return NativeThread(handle: handle)
    }

    func join() {
        pthread_join(handle, nil)
    }
}
