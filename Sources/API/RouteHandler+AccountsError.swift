import Accounts
import HTTPServer

extension RouteHandler {
    /// A handler that uses `Accounts` (SQLite, scrypt): run on the worker pool, with
    /// `AccountsError`s turned into their problems.
    static func accountsBlocking(_ body: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse) -> RouteHandler {
        .blocking { request in
            do {
                return try body(request)
            } catch let error as AccountsError {
                throw error.httpError ?? error
            }
        }
    }
}
