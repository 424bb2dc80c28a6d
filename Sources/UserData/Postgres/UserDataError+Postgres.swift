import Postgres

extension UserDataError {
    /// PostgreSQL's error as the store's: a server that cannot be reached or is
    /// restarting, and a transaction it rolled back for a race, are `unavailable` for a
    /// second.
    init(_ error: PostgresError) {
        let kind: Kind =
            if error.isUnavailable || error.isSerializationFailure { .unavailable(retryAfterSeconds: 1) }
            else if error.isConstraintViolation { .constraintViolation }
            else { .failed }
        self.init(kind, detail: error.description)
    }
}
