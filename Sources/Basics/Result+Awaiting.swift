import Dispatch
import Synchronization

extension Result where Success: Sendable, Failure == any Error {
    /// Starts work that answers once through a completion (on any thread) and waits for
    /// that answer on the calling thread: the blocking form of a call that otherwise
    /// lets its caller go (`UserDataStore.groupWrite`).
    public static func awaiting(_ start: (@escaping @Sendable (Result) -> Void) -> Void) throws -> Success {
        let outcome = Mutex<Result?>(nil)
        let done = DispatchSemaphore(value: 0)
        start { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0.take()! }.get()
    }
}
