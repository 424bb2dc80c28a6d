/// Why a `WorkerPool` did not take a job; the job has not run.
public enum WorkerPoolError: Error, Sendable, Equatable {
    /// As many jobs as the pool admits are running or waiting already.
    case full
    /// `stop()` was called.
    case stopped
}
