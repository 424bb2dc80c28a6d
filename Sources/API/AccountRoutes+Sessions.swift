import Accounts
import HTTPServer

/// `GET /users/me/sessions` and `DELETE /users/me/sessions/{sessionID}` (openapi.yaml tag `accounts`).
extension AccountRoutes {
    /// The caller's live sessions, most recently used first; the listing is a use of the current one.
    func listSessions(_ request: HTTPRequest) throws -> HTTPResponse {
        .json(SessionJSON.list(try accounts.sessions.list(try authenticate(request))))
    }

    /// Ends one of the caller's sessions; another user's, or none, is a 404.
    func revokeSession(_ request: HTTPRequest) throws -> HTTPResponse {
        let user = try authenticate(request)
        try accounts.sessions.revoke(user, sessionID: request.pathParameters["sessionID"] ?? "")
        return .empty(.noContent)
    }
}
