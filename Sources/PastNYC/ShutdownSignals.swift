import Dispatch
import Glibc

/// SIGTERM and SIGINT, caught from `init` on: made before the server starts listening,
/// so a signal sent as soon as it listens (a supervisor's, a test's) is never lost in
/// the moment between the two. `wait()` blocks the caller until one arrives.
final class ShutdownSignals {
    private let received = DispatchSemaphore(value: 0)
    private var sources: [DispatchSourceSignal] = []

    init() {
        for signalNumber in [SIGTERM, SIGINT] {
            // The default action would kill the process before the dispatch source sees it.
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { [received] in received.signal() }
            source.resume()
            sources.append(source)
        }
    }

    func wait() {
        received.wait()
        sources.forEach { $0.cancel() }
    }
}
