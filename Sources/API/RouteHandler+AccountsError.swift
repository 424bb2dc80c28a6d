import Accounts
import HTTPServer
import UserData

extension RouteHandler {
    /// A handler that uses `Accounts` (SQLite, scrypt): run on the worker pool, with its
    /// errors mapped by `mappingAccountsErrors`.
    static func accountsBlocking(_ body: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse) -> RouteHandler {
        .blocking(mappingAccountsErrors(body))
    }

    /// A handler that uses `Accounts` and answers when a write's group has committed:
    /// run on the worker pool (see `RouteHandler.deferred`); what `body` throws, and what
    /// it answers through `respondMappingAccountsErrors`, is mapped as by
    /// `mappingAccountsErrors`.
    static func accountsDeferred(_ body: @escaping @Sendable (HTTPRequest, HTTPResponder) throws -> Void) -> RouteHandler {
        .deferred { request, responder in
            do {
                try body(request, responder)
            } catch {
                responder.respond { throw mapped(error) }
            }
        }
    }

    /// `body` with `AccountsError`s turned into their problems, and a write the disk
    /// cannot hold into a 503 (`HTTPError.storageUnavailable`) rather than a 500.
    static func mappingAccountsErrors(
        _ body: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse
    ) -> @Sendable (HTTPRequest) throws -> HTTPResponse {
        { request in
            do {
                return try body(request)
            } catch {
                throw mapped(error)
            }
        }
    }

    /// An `AccountsError` as its problem, a store that cannot take the call
    /// (`UserDataError`: storage full, store unavailable) as a 503, anything else as it is.
    static func mapped(_ error: any Error) -> any Error {
        if let error = error as? AccountsError, let problem = error.httpError { return problem }
        if let error = error as? UserDataError, let problem = error.httpError { return problem }
        return error
    }
}

extension HTTPResponder {
    /// `respond(_:)` with the errors of `makeResponse` mapped as `RouteHandler.mapped` does.
    func respondMappingAccountsErrors(_ makeResponse: () throws -> HTTPResponse) {
        respond {
            do {
                return try makeResponse()
            } catch {
                throw RouteHandler.mapped(error)
            }
        }
    }
}
