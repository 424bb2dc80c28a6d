import Dispatch
import Glibc
import Synchronization

/// A fixed number of threads running jobs off the caller's thread, first in first out,
/// with a bound on how many jobs it admits (running plus waiting). A job beyond the bound
/// is refused at once, never queued: the caller answers "busy" (the password hasher's
/// 503) instead of piling up memory and latency.
///
/// The HTTP server runs its `.blocking` handlers here without a bound (each connection
/// has at most one job, so the connection cap bounds the queue); the password hasher
/// runs scrypt here with a small bound, at a lower priority.
public final class WorkerPool: Sendable {
    public typealias Job = @Sendable () -> Void

    /// A job, and what to call once it is no longer counted as admitted.
    private struct Entry {
        let job: Job
        let finished: Job?
    }

    private struct State {
        /// Waiting jobs from `head` on; a nil tells one worker to exit.
        var queue: [Entry?] = []
        var head = 0
        /// Jobs running or waiting.
        var admitted = 0
        var isStopped = false
    }

    public let threadCount: Int
    /// The most jobs running or waiting at once: `threadCount` plus the waiting limit.
    public let capacity: Int

    private let state = Mutex(State())
    private let available = DispatchSemaphore(value: 0)

    /// Starts `threadCount` threads (at least one) named `name-0`, `name-1`, ….
    /// - Parameters:
    ///   - waitingLimit: how many jobs may wait for a free thread; beyond it `submit`
    ///     and `run` refuse at once. Unbounded by default.
    ///   - niceness: how much nicer than the calling thread the threads run (`setpriority(2)`,
    ///     at most 19): at 10, when they compete with the rest for the CPU, the scheduler
    ///     gives the rest about nine tenths of it (CFS weights 1024 vs 110).
    public init(threadCount: Int, name: String, waitingLimit: Int = .max, niceness: Int32 = 0) throws(SystemCallError) {
        precondition(waitingLimit >= 0, "a negative waiting limit")
        self.threadCount = max(1, threadCount)
        let (sum, overflow) = self.threadCount.addingReportingOverflow(waitingLimit)
        capacity = overflow ? .max : sum
        for index in 0..<self.threadCount {
            // Detached: `stop()` does not wait for the threads (see there), so none is joined.
            try NativeThread.spawn(name: "\(name)-\(index)") { [self] in
                // On Linux the nice value is per thread (and inherited from the creating
                // one): `who = 0` reads and changes only this thread.
                if niceness != 0 {
                    let inherited = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
                    setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, min(19, inherited + niceness))
                }
                runWorker()
            }.detach()
        }
    }

    /// Jobs running or waiting right now.
    public var jobsInFlight: Int {
        state.withLock { $0.admitted }
    }

    /// Queues `job` and returns at once; false (and `job` never runs) when the pool is
    /// full or stopped.
    @discardableResult
    public func submit(_ job: @escaping Job) -> Bool {
        enqueue(Entry(job: job, finished: nil))
    }

    /// Runs `body` on one of the threads and returns its result once it is done. Throws
    /// `WorkerPoolError` at once, without running `body`, when the pool is full or stopped;
    /// otherwise whatever `body` throws.
    public func run<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) throws -> Value {
        let outcome = Mutex<Result<Value, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let entry = Entry(
            job: {
                let result = Result { try body() }
                outcome.withLock { $0 = result }
            },
            // Signalled once the job no longer counts, so `jobsInFlight` is exact when `run` returns.
            finished: { done.signal() })
        guard enqueue(entry) else { throw state.withLock { $0.isStopped } ? WorkerPoolError.stopped : .full }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }

    /// Refuses new jobs, lets the threads finish the jobs already admitted, then exit.
    /// Does not wait for them: a handler stuck in a slow call must not hold up shutdown.
    public func stop() {
        let isFirstStop = state.withLock { state in
            guard !state.isStopped else { return false }
            state.isStopped = true
            state.queue.append(contentsOf: Array(repeating: nil, count: threadCount))
            return true
        }
        guard isFirstStop else { return }
        for _ in 0..<threadCount { available.signal() }
    }

    private func enqueue(_ entry: Entry) -> Bool {
        let isAdmitted = state.withLock { state in
            guard !state.isStopped, state.admitted < capacity else { return false }
            state.admitted += 1
            state.queue.append(entry)
            return true
        }
        if isAdmitted { available.signal() }
        return isAdmitted
    }

    private func runWorker() {
        while true {
            available.wait()
            let entry = state.withLock { state in
                let entry = state.queue[state.head]
                state.head += 1
                // Drop the taken slots once they are half the array, so it does not grow forever.
                if state.head * 2 >= state.queue.count {
                    state.queue.removeFirst(state.head)
                    state.head = 0
                }
                return entry
            }
            guard let entry else { return }
            entry.job()
            state.withLock { $0.admitted -= 1 }
            entry.finished?()
        }
    }
}
