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

    private func outcome(of error: SQLiteError) -> (any Error)? {
        let handler = RouteHandler.accountsBlocking { _ in throw UserDataError(error) }
        guard case .blocking(let body) = handler else { return nil }
        do {
            _ = try body(HTTPRequest(method: .put, target: "/favorites/1", path: "/favorites/1"))
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [full, ioErrorWrite, ioErrorFsync])
    func aStorageFailureIsA503WithRetryAfter(_ code: Int32) throws {
        let error = try #require(outcome(of: SQLiteError(code: code, message: "database or disk is full")) as? HTTPError)
        #expect(error.status == .serviceUnavailable)
        #expect(Int(error.headers["Retry-After"] ?? "") ?? 0 > 0)
        #expect(!error.detail.contains("SQLite"), "the detail does not leak the database error")
    }

    @Test func anotherSQLiteErrorIsNotTurnedIntoA503() {
        let thrown = outcome(of: SQLiteError(code: Self.constraintUnique, message: "UNIQUE constraint failed"))
        #expect((thrown as? UserDataError)?.kind == .constraintViolation)
    }
}
