import Accounts
import HTTPServer
import SQLite

extension RouteHandler {
    /// A handler that uses `Accounts` (SQLite, scrypt): run on the worker pool, with its
    /// errors mapped by `mappingAccountsErrors`.
    static func accountsBlocking(_ body: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse) -> RouteHandler {
        .blocking(mappingAccountsErrors(body))
    }

    /// `body` with `AccountsError`s turned into their problems, and a write the disk
    /// cannot hold into a 503 (`HTTPError.storageUnavailable`) rather than a 500.
    static func mappingAccountsErrors(
        _ body: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse
    ) -> @Sendable (HTTPRequest) throws -> HTTPResponse {
        { request in
            do {
                return try body(request)
            } catch let error as AccountsError {
                throw error.httpError ?? error
            } catch let error as SQLiteError where error.isStorageFailure {
                throw HTTPError.storageUnavailable
            }
        }
    }
}
