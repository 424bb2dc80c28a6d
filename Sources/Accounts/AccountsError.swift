import UserData

/// What can go wrong in account and favorite operations, with the context the
/// API needs to answer (which field, how long to wait). Never carries a password
/// or a token.
public enum AccountsError: Error, Sendable, Equatable {
    /// A request field breaks a rule; `field` is its JSON name, `reason` says which rule.
    case invalidField(field: String, reason: String)
    /// The username is already registered (compared ignoring case).
    case usernameTaken
    /// Unknown username or wrong password: deliberately indistinguishable.
    case invalidCredentials
    /// Too many failed logins for this username from this client address.
    case tooManyFailedLogins(retryAfterSeconds: Int)
    /// Too many failed logins from this client address, whatever the usernames.
    case tooManyFailedLoginsFromClient(retryAfterSeconds: Int)
    /// This client address already has as many password hashes running or queued as it may.
    case tooManyHashes(retryAfterSeconds: Int)
    /// This client address created as many accounts as it may within the hour.
    case tooManyRegistrations(retryAfterSeconds: Int)
    /// Every password-hashing slot and queue place is taken.
    case hasherBusy(retryAfterSeconds: Int)
    /// No usable token: missing, malformed, unknown, revoked or expired.
    case invalidToken
    /// The password given to confirm a change or deletion is wrong; `field` is its JSON name.
    case wrongPassword(field: String)
    /// The photo is not among the user's favorites.
    case favoriteNotFound
    /// A new favorite past the most one user keeps (`Favorites.maximum`).
    case favoriteLimitReached(maximum: Int)
    /// A `cursor` that this server did not issue.
    case invalidCursor
    /// A sync `since` token that this server did not issue, or issued to another user.
    case invalidSyncToken
    /// A sync `since` token older than the change history kept.
    case expiredSyncToken
    /// The stored password hash cannot be parsed: the database was altered outside this code.
    case corruptPasswordHash(userID: Int64)
    /// The user has no live session of that name (`Sessions.revoke`).
    case sessionNotFound
    /// Another account verified this email address.
    case emailTaken
    /// The user asked for as many verification codes as an hour allows.
    case tooManyVerificationCodes(retryAfterSeconds: Int)
    /// The user has no email address to verify.
    case noEmailToVerify
    /// The user's email address is verified already.
    case emailAlreadyVerified
}

extension AccountsError {
    /// `invalidToken` for a write that broke a constraint after its user was
    /// authenticated: the user's foreign key (the only constraint such a write can
    /// break), so the user was deleted meanwhile and the token no longer works. Any
    /// other error as it is.
    static func invalidTokenIfUserGone(_ error: any Error) -> any Error {
        if let violation = error as? UserDataError, violation.isConstraintViolation {
            return AccountsError.invalidToken
        }
        return error
    }
}
