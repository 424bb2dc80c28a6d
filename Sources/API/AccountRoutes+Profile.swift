import Accounts
import HTTPServer

/// `PATCH /users/me` and `DELETE /users/me/data` (openapi.yaml tag `profile`).
extension AccountRoutes {
    /// A JSON merge patch of `displayName` and `home`; answers the updated User.
    func updateProfile(_ request: HTTPRequest, _ responder: HTTPResponder) throws {
        let user = try authenticate(request)
        let patch = try ProfilePatchBody.parse(request)
        try accounts.profiles.update(user, patch: patch) { [refusals] outcome in
            if case .failure(let error as AccountsError) = outcome, let rule = error.refusalRule {
                refusals.record(rule, client: request.remoteAddress)
            }
            responder.respond { .json(AccountJSON.user(try outcome.get())) }
        }
    }

    /// "Reset": favorites, recents (and every other kind of user data) erased;
    /// the account, its profile and its tokens stay. Answers once all is erased, slice
    /// after slice (`Accounts.eraseUserData`), holding a worker thread meanwhile.
    func eraseUserData(_ request: HTTPRequest) throws -> HTTPResponse {
        try accounts.eraseUserData(try authenticate(request))
        return .empty(.noContent)
    }
}
