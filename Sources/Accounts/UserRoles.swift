import Foundation
import UserData

/// The users' roles as the operator sets them (`past-nyc moderators add|remove|list`),
/// straight in the store, while servers run on it: a server reads a user's role
/// whenever a request needs it (`role(ofUser:in:)`), in the same read or transaction as
/// what it then does, so a change is honoured by the next request on every instance,
/// with no cache to expire and no restart.
public enum UserRoles {
    /// Gives the account named `username` (any case) the role `role`; giving it the role
    /// it has changes nothing. A change is a change of the user's profile for `GET /sync`
    /// (`User.role`), logged in the same transaction after the user's row is locked, as
    /// every write of a user's data does (`ChangeLog`).
    /// - Throws: `UnknownUsername`; `UserDataError`.
    public static func assign(
        _ role: UserRole, toUsername username: String, in store: any UserDataStore, now: Date = Date()
    ) throws {
        let key = CredentialPolicy.key(forUsername: username)
        let second = Int64(now.timeIntervalSince1970.rounded(.down))
        let found = try store.write { connection in
            let userID = try connection.queryFirst(
                "SELECT id FROM users WHERE username_key = ? AND deleted_at IS NULL", [.text(key)]
            ) { $0.int64(0) }
            guard let userID else { return false }
            try connection.lockRows("SELECT 1 FROM users WHERE id = ?", [.integer(userID)])
            try connection.execute(
                "UPDATE users SET role = ? WHERE id = ? AND role <> ?", [.text(role.rawValue), .integer(userID), .text(role.rawValue)])
            if connection.changes > 0 { try ChangeLog.record(.profile, userID: userID, at: second, in: connection) }
            return true
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
