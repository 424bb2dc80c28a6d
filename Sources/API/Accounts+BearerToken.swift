import Accounts
import HTTPServer

extension Accounts {
    /// The user of the request's bearer token (RFC 6750 §2.1). No `Authorization:
    /// Bearer` at all → 401 with a plain challenge; a token that does not work → 401
    /// with `error="invalid_token"`. Shared by every route that needs a user.
    func authenticate(_ request: HTTPRequest) throws -> AuthenticatedUser {
        let parts = request.headers["Authorization"]?.trimmingSpaces().split(separator: " ", maxSplits: 1) ?? []
        guard parts.count == 2, String(parts[0]).caseInsensitiveEquals("Bearer") else {
            throw HTTPError(
                .unauthorized, detail: "this endpoint needs an Authorization: Bearer token",
                headers: HTTPHeaders([("WWW-Authenticate", AccountsError.bearerChallenge)]))
        }
        return try authenticate(token: parts[1].trimmingSpaces())
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (HTTP optional whitespace, RFC 9110 §5.6.3).
    fileprivate func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
