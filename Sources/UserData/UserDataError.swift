/// What a user-data store throws when it fails, whichever store it is: each store turns
/// its engine's errors (`SQLiteError`, `PostgresError`) into one of these, so its
/// callers, and the API's mapping to HTTP statuses, know one error type. An error the
/// caller's own body throws inside `read` or `write` reaches the caller as it is.
public struct UserDataError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// A unique, foreign-key, check or not-null constraint refused the change.
        case constraintViolation
        /// The disk could not hold the write (full, or an I/O error): nothing was stored,
        /// the store itself is intact, and the same write may succeed once space is freed.
        case storageFailure
        /// The store is busy or cannot be reached right now (a shared store down or
        /// restarting, no free pooled connection, a write that kept losing races): the
        /// same call may succeed after `retryAfterSeconds`.
        case unavailable(retryAfterSeconds: Int)
        /// Anything else: a fault of the server or of the store, not of the request.
        case failed
    }

    public let kind: Kind
    /// What the store said (its code, message and SQL, never the bound values), for the log.
    public let detail: String

    public init(_ kind: Kind, detail: String) {
        self.kind = kind
        self.detail = detail
    }

    public var isConstraintViolation: Bool { kind == .constraintViolation }

    public var description: String { detail }
}
