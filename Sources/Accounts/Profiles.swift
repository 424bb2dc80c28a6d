import UserData

/// The users' profiles: what `GET /users/me` shows, and the merge patches of
/// `PATCH /users/me` (display name, home place, email address).
public struct Profiles: Sendable {
    let store: any UserDataStore
    /// The email address's rules and its verification.
    let email: EmailVerification
    /// The current time in Unix milliseconds.
    let clock: @Sendable () -> Int64

    /// The caller as `GET /users/me` shows them.
    /// - Throws: `invalidToken` when the user was deleted meanwhile.
    public func user(_ authenticated: AuthenticatedUser) throws -> User {
        let user = try store.read { connection in try User.stored(authenticated.userID, in: connection) }
        guard let user else { throw AccountsError.invalidToken }
        return user
    }

    /// Applies a merge patch to the profile and hands `completion` the user as updated.
    /// Every field is validated before anything is written (a bad one throws here,
    /// and nothing is written), and the write is one transaction: a patch is applied
    /// whole or not at all. The email's rules are `EmailVerification`'s.
    public func update(
        _ authenticated: AuthenticatedUser, patch: ProfilePatch,
        completion: @escaping @Sendable (Result<User, any Error>) -> Void
    ) throws {
        var assignments: [String] = []
        var values: [UserDataValue] = []
        switch patch.displayName {
        case .unchanged: break
        case .cleared:
            assignments.append("display_name = NULL")
        case .set(let name):
            assignments.append("display_name = ?")
            values.append(.text(try ProfilePolicy.normalizedDisplayName(name)))
        }
        switch patch.home {
        case .unchanged: break
        case .cleared:
            assignments.append("home_latitude = NULL, home_longitude = NULL")
        case .set(let home):
            try ProfilePolicy.validate(home)
            assignments.append("home_latitude = ?, home_longitude = ?")
            values += [.real(home.latitude), .real(home.longitude)]
        }
        try email.validate(patch.email)
        let now = clock() / 1000
        store.groupWrite(
            { [assignments, values, email] connection in
                try Accounts.lockUser(authenticated, in: connection)
                if !assignments.isEmpty {
                    try connection.execute(
                        "UPDATE users SET \(assignments.joined(separator: ", ")) WHERE id = ?",
                        values + [.integer(authenticated.userID)])
                }
                let emailChanged = try email.apply(patch.email, userID: authenticated.userID, in: connection)
                guard let user = try User.stored(authenticated.userID, in: connection) else { throw AccountsError.invalidToken }
                if !assignments.isEmpty || emailChanged {
                    try ChangeLog.record(.profile, userID: authenticated.userID, at: now, in: connection)
                }
                return user
            },
            completion: { [email] in
                if case .success = $0, patch.email != .unchanged { email.announce() }
                completion($0)
            })
    }
}
