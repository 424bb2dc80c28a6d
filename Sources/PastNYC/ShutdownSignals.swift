import Dispatch
import Glibc

/// Blocks the caller until SIGTERM or SIGINT arrives.
enum ShutdownSignals {
    static func wait() {
        let received = DispatchSemaphore(value: 0)
        var sources: [DispatchSourceSignal] = []
        for signalNumber in [SIGTERM, SIGINT] {
            // The default action would kill the process before the dispatch source sees it.
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { received.signal() }
            source.resume()
            sources.append(source)
        }
        received.wait()
        sources.forEach { $0.cancel() }
    }
}
