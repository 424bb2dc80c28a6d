import Accounts
import HTTPServer

/// `POST /users/me/email/verify` and `POST /users/me/email/verify/resend` (openapi.yaml
/// tag `accounts`); the address itself is set with `PATCH /users/me`.
extension AccountRoutes {
    /// `{"code"}`: the 6 digits sent to the address; answers the User, verified.
    func verifyEmail(_ request: HTTPRequest) throws -> HTTPResponse {
        let user = try authenticate(request)
        let body = try JSONBody(request, shape: #"{"code": "6 digits"}"#)
        try body.rejectUnknownFields(known: ["code"])
        return .json(AccountJSON.user(try accounts.email.verify(user, code: try body.string("code"))))
    }

    /// A new code to the unverified address (no body, or `{}`).
    func resendEmailCode(_ request: HTTPRequest) throws -> HTTPResponse {
        let user = try authenticate(request)
        try JSONBody.requireEmpty(request)
        try accounts.email.resend(user)
        return .json(SessionJSON.accepted("a new code is on its way to your email address"), status: .accepted)
    }
}
