import Dispatch
import Foundation
import Glibc
import Synchronization

/// A few dedicated threads at a lower scheduling priority (nice 10) that run jobs
/// handed to them while the caller waits. Password hashing runs here: when scrypt and
/// request serving compete for the CPU, the scheduler gives serving about nine tenths
/// of it (CFS weights 1024 vs 110), so a login flood cannot starve catalog reads.
/// The threads live as long as the process, like the server that owns them.
final class BackgroundThreads: Sendable {
    private let jobs = Mutex<[@Sendable () -> Void]>([])
    private let available = DispatchSemaphore(value: 0)

    /// How much nicer than the process the threads run (`setpriority(2)`).
    static let niceness: Int32 = 10

    init(count: Int, name: String) {
        for index in 0..<count {
            let thread = Thread { [self] in
                // On Linux the nice value is per thread: `who = 0` changes only this one.
                setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, Self.niceness)
                while true {
                    available.wait()
                    let job = jobs.withLock { $0.removeFirst() }
                    job()
                }
            }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    /// Runs `body` on one of the threads and returns its result once it is done.
    func run<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) throws -> Value {
        let outcome = Mutex<Result<Value, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        jobs.withLock {
            $0.append {
                let result = Result { try body() }
                outcome.withLock { $0 = result }
                done.signal()
            }
        }
        available.signal()
        done.wait()
        return try outcome.withLock { $0! }.get()
    }
}
