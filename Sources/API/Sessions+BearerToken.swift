import Accounts
import Basics
import HTTPServer

extension Sessions {
    /// The user of the request's bearer token (RFC 6750 §2.1). No `Authorization:
    /// Bearer` at all → 401 with a plain challenge; a token that does not work →
    /// `AccountsError.invalidToken` (401 with `error="invalid_token"`).
    ///
    /// Reads SQLite: call it off the event loop.
    func authenticate(_ request: HTTPRequest) throws -> AuthenticatedUser {
        try authenticate(token: Self.bearerToken(request))
    }

    /// The request's bearer token, unchecked. No `Authorization: Bearer` at all → 401
    /// with a plain challenge.
    static func bearerToken(_ request: HTTPRequest) throws -> String {
        let parts = request.headers["Authorization"]?.trimmingSpacesAndTabs().split(separator: " ", maxSplits: 1) ?? []
        guard parts.count == 2, parts[0].caseInsensitiveEquals("Bearer") else {
            throw HTTPError(
                .unauthorized, detail: "this endpoint needs an Authorization: Bearer token",
                headers: HTTPHeaders([("WWW-Authenticate", AccountsError.bearerChallenge)]))
        }
        return String(parts[1].trimmingSpacesAndTabs())
    }
}
