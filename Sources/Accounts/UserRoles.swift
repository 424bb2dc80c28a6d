import UserData

/// The users' roles as the operator sets them (`past-nyc moderators add|remove|list`),
/// straight in the store, while servers run on it: a server reads a user's role
/// whenever a request needs it (`role(ofUser:in:)`), in the same read or transaction as
/// what it then does, so a change is honoured by the next request on every instance,
/// with no cache to expire and no restart.
public enum UserRoles {
    /// Gives the account named `username` (any case) the role `role`; giving it the role
    /// it has changes nothing.
    /// - Throws: `UnknownUsername`; `UserDataError`.
    public static func assign(_ role: UserRole, toUsername username: String, in store: any UserDataStore) throws {
        let key = CredentialPolicy.key(forUsername: username)
        let found = try store.write { connection in
            try connection.execute(
                "UPDATE users SET role = ? WHERE username_key = ? AND deleted_at IS NULL", [.text(role.rawValue), .text(key)])
            return connection.changes > 0
        }
        guard found else { throw UnknownUsername(username: username) }
    }

    /// The usernames (as registered) of the accounts holding `role`, in the order of
    /// their keys (lowercase code points).
    public static func usernames(holding role: UserRole, in store: any UserDataStore) throws -> [String] {
        try store.read { connection in
            try connection.query(
                "SELECT username FROM users WHERE role = ? AND deleted_at IS NULL ORDER BY username_key",
                [.text(role.rawValue)]
            ) { $0.text(0) }
        }
    }

    /// The role of the user `userID`, as committed when the caller's statement runs;
    /// nil when the user is gone or being deleted.
    public static func role(ofUser userID: Int64, in connection: any UserDataConnection) throws -> UserRole? {
        try connection.queryFirst("SELECT role FROM users WHERE id = ? AND deleted_at IS NULL", [.integer(userID)]) {
            UserRole(rawValue: $0.text(0))
        } ?? nil
    }
}
