import Dispatch
import Synchronization

/// A fixed number of threads running `RouteHandler.blocking` work off the event loops.
/// Jobs queue without bound here, but each connection has at most one job at a time, so
/// the queue is bounded by the connection cap.
final class WorkerPool: Sendable {
    typealias Job = @Sendable () -> Void

    private let queue = Mutex<[Job?]>([])
    private let available = DispatchSemaphore(value: 0)
    private let threads: Mutex<[NativeThread]>

    init(threadCount: Int) throws(HTTPServerError) {
        threads = Mutex([])
        for _ in 0..<max(1, threadCount) {
            let thread = try NativeThread.spawn { [self] in runWorker() }
            threads.withLock { $0.append(thread) }
        }
    }

    func submit(_ job: @escaping Job) {
        queue.withLock { $0.append(job) }
        available.signal()
    }

    /// Lets every worker finish the job it runs, then exit. Does not wait for them: a
    /// handler stuck in a slow call must not hold up shutdown.
    func stop() {
        let count = threads.withLock { $0.count }
        queue.withLock { jobs in jobs.append(contentsOf: Array(repeating: nil, count: count)) }
        for _ in 0..<count { available.signal() }
    }

    private func runWorker() {
        while true {
            available.wait()
            let job = queue.withLock { jobs in jobs.removeFirst() }
            guard let job else { return }
            job()
        }
    }
}
