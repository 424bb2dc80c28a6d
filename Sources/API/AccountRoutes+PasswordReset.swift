import Accounts
import HTTPServer

/// `POST /users/password-reset` and `POST /users/password-reset/confirm` (openapi.yaml
/// tag `accounts`): no token; the first answers the same for every address.
extension AccountRoutes {
    static let resetAccepted = SessionJSON.accepted(
        "if this address is the verified email of an account, a message with a reset token is on its way to it")

    /// `{"email"}`: `202`, the same body whatever the address (`PasswordReset.request`).
    func requestPasswordReset(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try JSONBody(request, shape: #"{"email": string}"#)
        try body.rejectUnknownFields(known: ["email"])
        try accounts.passwordReset.request(email: try body.string("email"))
        return .json(Self.resetAccepted, status: .accepted)
    }

    /// `{"token", "newPassword"}`: answers as a login does, with a new session.
    func confirmPasswordReset(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try JSONBody(request, shape: #"{"token": string, "newPassword": string}"#)
        try body.rejectUnknownFields(known: ["token", "newPassword"])
        let token = try body.string("token")
        let newPassword = try body.string("newPassword")
        let session = try accounts.passwordReset.confirm(
            token: token, newPassword: newPassword, clientAddress: request.remoteAddress,
            userAgent: request.headers["User-Agent"])
        return .json(AccountJSON.session(session))
    }
}
