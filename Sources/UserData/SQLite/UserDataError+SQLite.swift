import SQLite

extension UserDataError {
    /// SQLite's error as the store's. A busy database stays `failed`: the store's one
    /// writer waits for SQLite's lock itself, so SQLITE_BUSY means another process holds it.
    init(_ error: SQLiteError) {
        let kind: Kind =
            if error.isConstraintViolation { .constraintViolation }
            else if error.isStorageFailure { .storageFailure }
            else { .failed }
        self.init(kind, detail: error.description)
    }

    /// `error` as the store's error when SQLite raised it; any other error as it is.
    static func fromSQLite(_ error: any Error) -> any Error {
        guard let error = error as? SQLiteError else { return error }
        return UserDataError(error)
    }

    /// Runs `body`, throwing what SQLite raises in it as `UserDataError`s.
    static func mappingSQLiteErrors<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch {
            throw fromSQLite(error)
        }
    }
}
