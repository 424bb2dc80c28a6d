import HTTPServer

extension HTTPError {
    /// How long a client should wait before retrying a write the disk could not hold.
    static let storageRetryAfterSeconds = 30

    /// A write that could not be stored because the data directory's disk is full or
    /// failing. 503, not 500: the server and its data are fine, reads keep working, and
    /// the same write succeeds once space is freed, without a restart.
    static let storageUnavailable = HTTPError(
        .serviceUnavailable,
        detail: "the server cannot store this change right now (its storage is full); try again in \(storageRetryAfterSeconds) s",
        headers: HTTPHeaders([("Retry-After", String(storageRetryAfterSeconds))]))
}
