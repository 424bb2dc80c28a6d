import Accounts
import HTTPServer

extension AccountsError: HTTPResponseError {
    /// The `WWW-Authenticate` challenge of every 401 (RFC 6750 §3).
    static let bearerChallenge = #"Bearer realm="past-nyc""#
    /// The challenge when the request carried a token that does not work (RFC 6750 §3.1).
    static let invalidTokenChallenge = #"Bearer realm="past-nyc", error="invalid_token""#

    /// The problem the client sees. `corruptPasswordHash` is a server fault: nil, so
    /// the original error reaches the server's 500 handling and its log.
    public var problem: HTTPError? {
        switch self {
        case .invalidField(let field, let reason):
            return HTTPError(.badRequest, detail: "\(field) \(reason)")
        case .usernameTaken:
            return HTTPError(.conflict, detail: "username is already taken")
        case .invalidCredentials:
            return HTTPError(
                .unauthorized, detail: "wrong username or password",
                headers: HTTPHeaders([("WWW-Authenticate", Self.bearerChallenge)]))
        case .tooManyFailedLogins(let seconds):
            return HTTPError(
                .tooManyRequests, detail: "too many failed logins; try again in \(seconds) s",
                headers: HTTPHeaders([("Retry-After", String(seconds))]))
        case .tooManyFailedLoginsFromClient(let seconds):
            return HTTPError(
                .tooManyRequests, detail: "too many failed logins from your address; try again in \(seconds) s",
                headers: HTTPHeaders([("Retry-After", String(seconds))]))
        case .tooManyHashes(let seconds):
            return HTTPError(
                .tooManyRequests,
                detail: "your address already has as many password checks in progress as it may; try again in \(seconds) s",
                headers: HTTPHeaders([("Retry-After", String(seconds))]))
        case .tooManyRegistrations(let seconds):
            return HTTPError(
                .tooManyRequests, detail: "too many accounts created from your address; try again in \(seconds) s",
                headers: HTTPHeaders([("Retry-After", String(seconds))]))
        case .hasherBusy(let seconds):
            return HTTPError(
                .serviceUnavailable, detail: "too many password checks in progress; try again in \(seconds) s",
                headers: HTTPHeaders([("Retry-After", String(seconds))]))
        case .invalidToken:
            return HTTPError(
                .unauthorized, detail: "the bearer token is invalid, expired or revoked",
                headers: HTTPHeaders([("WWW-Authenticate", Self.invalidTokenChallenge)]))
        case .wrongPassword(let field):
            return HTTPError(.forbidden, detail: "\(field) is wrong")
        case .favoriteNotFound:
            return HTTPError(.notFound, detail: "this photo is not among your favorites")
        case .favoriteLimitReached(let maximum):
            return HTTPError(
                .conflict, detail: "a user keeps at most \(maximum.groupedByThousands) favorites; remove one first")
        case .invalidCursor:
            return HTTPError(.badRequest, detail: "cursor is not one this server issued")
        case .invalidSyncToken:
            return HTTPError(.badRequest, detail: "since is not a token this server issued to you")
        case .expiredSyncToken:
            return HTTPError(.gone, detail: "since is older than the kept history; sync again without since")
        case .corruptPasswordHash:
            return nil
        }
    }
}
