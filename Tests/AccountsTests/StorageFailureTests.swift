import HTTPServer
import SQLite
import Testing

@testable import API
@testable import UserData

/// A write the disk cannot hold (SQLite's SQLITE_FULL, or an I/O error) is the store's
/// `storageFailure`, a 503 problem with `Retry-After`, never a 500; other store errors
/// are left alone. `scripts/reliability-disk-full.sh` shows the same on a real full disk.
@Suite struct StorageFailureTests {
    /// Extended result codes (https://sqlite.org/rescode.html).
    static let full: Int32 = 13
    static let ioErrorWrite: Int32 = 778
    static let ioErrorFsync: Int32 = 1034
    static let constraintUnique: Int32 = 2067

    @Test(arguments: [full, ioErrorWrite, ioErrorFsync])
    func aStorageFailureIsA503WithRetryAfter(_ code: Int32) throws {
        let error = try #require(UserDataError(SQLiteError(code: code, message: "database or disk is full")).problem)
        #expect(error.status == .serviceUnavailable)
        #expect(Int(error.headers["Retry-After"] ?? "") ?? 0 > 0)
        #expect(!error.detail.contains("SQLite"), "the detail does not leak the database error")
    }

    @Test func anotherSQLiteErrorIsNotTurnedIntoA503() {
        let error = UserDataError(SQLiteError(code: Self.constraintUnique, message: "UNIQUE constraint failed"))
        #expect(error.kind == .constraintViolation)
        #expect(error.problem == nil, "a server fault: a logged 500")
    }
}
