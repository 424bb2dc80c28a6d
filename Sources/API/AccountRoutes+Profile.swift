import Accounts
import HTTPServer

/// `PATCH /users/me` and `DELETE /users/me/data` (openapi.yaml tag `profile`).
extension AccountRoutes {
    /// A JSON merge patch of `displayName` and `home`; answers the updated User.
    func updateProfile(_ request: HTTPRequest) throws -> HTTPResponse {
        let user = try authenticate(request)
        let patch = try ProfilePatchBody.parse(request)
        return .json(AccountJSON.user(try accounts.updateProfile(user, patch: patch)))
    }

    /// "Reset": favorites, recents (and every other kind of user data) erased;
    /// the account, its profile and its tokens stay.
    func eraseUserData(_ request: HTTPRequest) throws -> HTTPResponse {
        try accounts.eraseUserData(try authenticate(request))
        return .empty(.noContent)
    }
}
