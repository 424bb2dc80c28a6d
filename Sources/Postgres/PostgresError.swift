/// A failure reported by libpq or by the server, with the server's SQLSTATE when it
/// answered (https://www.postgresql.org/docs/current/errcodes-appendix.html).
public struct PostgresError: Error, Sendable, CustomStringConvertible {
    /// Five characters, e.g. `23505`; nil when no server answered (connection refused,
    /// timed out or lost).
    public let sqlState: String?
    public let message: String

    public init(sqlState: String?, message: String) {
        self.sqlState = sqlState
        self.message = message
    }

    /// The store cannot be used right now, but may be soon: no connection (none could be
    /// made, or it broke), the server is starting or shutting down (class 08, 57P01–57P03),
    /// or a statement outlived its timeout (57014). A client may retry later.
    public var isUnavailable: Bool {
        guard let sqlState else { return true }
        return sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03", "57014", "53300"].contains(sqlState)
    }

    /// A unique, foreign-key, check or not-null constraint refused the change (class 23).
    public var isConstraintViolation: Bool { sqlState?.hasPrefix("23") ?? false }

    /// A serializable transaction lost a race (40001) or a deadlock was broken (40P01):
    /// the transaction was rolled back and may simply run again.
    public var isSerializationFailure: Bool { sqlState == "40001" || sqlState == "40P01" }

    public var description: String {
        "PostgreSQL error \(sqlState ?? "(no connection)"): \(message)"
    }
}
