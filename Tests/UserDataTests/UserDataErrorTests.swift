import Postgres
import SQLite
import Testing

@testable import UserData

/// Each engine's errors as the one `UserDataError` the stores throw.
@Suite struct UserDataErrorTests {
    /// Extended result codes (https://sqlite.org/rescode.html).
    @Test(arguments: [
        (Int32(13), UserDataError.Kind.storageFailure),  // SQLITE_FULL
        (778, .storageFailure),  // SQLITE_IOERR_WRITE
        (1034, .storageFailure),  // SQLITE_IOERR_FSYNC
        (2067, .constraintViolation),  // SQLITE_CONSTRAINT_UNIQUE
        (787, .constraintViolation),  // SQLITE_CONSTRAINT_FOREIGNKEY
        (5, .failed),  // SQLITE_BUSY: another process holds the file's lock
        (1, .failed),  // SQLITE_ERROR
    ])
    func sqlite(_ code: Int32, _ kind: UserDataError.Kind) {
        let error = UserDataError(SQLiteError(code: code, message: "message", sql: "SELECT 1"))
        #expect(error.kind == kind)
        #expect(error.detail.contains("SELECT 1"))
    }

    /// SQLSTATEs (https://www.postgresql.org/docs/current/errcodes-appendix.html).
    @Test(arguments: [
        (String?.none, UserDataError.Kind.unavailable(retryAfterSeconds: 1)),  // no server answered
        ("08006", .unavailable(retryAfterSeconds: 1)),  // connection failure
        ("57P01", .unavailable(retryAfterSeconds: 1)),  // admin shutdown
        ("40001", .unavailable(retryAfterSeconds: 1)),  // serialization failure, retries spent
        ("23505", .constraintViolation),  // unique violation
        ("23503", .constraintViolation),  // foreign key violation
        ("42P01", .failed),  // undefined table
    ])
    func postgres(_ sqlState: String?, _ kind: UserDataError.Kind) {
        #expect(UserDataError(PostgresError(sqlState: sqlState, message: "message")).kind == kind)
    }
}
