import Crypto
import Foundation
import Mail
import UserData

/// Setting a new password without the old one, by a token sent to the account's
/// verified email address.
///
/// `request` answers the same, in about the same time, whatever the address: every
/// request is one write transaction that runs the same statements (the lookup of the
/// address, the count of its messages, its row in `password_reset_requests`), and only
/// when the address is an account's verified one, and it had fewer than
/// `messagesPerHour` messages in the hour, does that transaction also write the message
/// to the outbox. Sending happens afterwards, on the sender's thread; the answer waits
/// for nothing that depends on the address. So neither the body nor the time tells
/// whether an address has an account.
///
/// The token (32 random bytes, base64url: 256 bits) is made when its message is sent
/// (`mintToken`, in the outbox's claiming transaction) and stored only as its SHA-256,
/// so neither the outbox nor a copy of the store holds one that works. It is good for
/// `tokenLifetime` after it is sent, for one use; a newer one does not void an older.
/// A confirmed reset sets the password, ends every session of the user, voids the
/// user's other reset tokens, and signs in anew.
public struct PasswordReset: Sendable {
    /// 30 minutes, in seconds.
    public static let tokenLifetime: Int64 = 30 * 60
    /// Reset messages one address gets within an hour at most; past that a request
    /// still answers the same, and nothing is sent.
    public static let messagesPerHour = 5
    static let requestWindow: Int64 = 60 * 60

    let store: any UserDataStore
    let policy: CredentialPolicy
    let hasher: PasswordHasher
    /// Nil when the server sends no mail.
    let outbox: Outbox?
    /// The current time in Unix milliseconds.
    let clock: @Sendable () -> Int64

    /// Sends a reset token to `email` when it is an account's verified address, within
    /// `messagesPerHour`; returns the same whatever happened.
    /// - Throws: `invalidField("email")` only for text that cannot be an address at all.
    public func request(email: String) throws {
        try EmailPolicy.validate(email, field: "email")
        let key = EmailPolicy.key(email)
        let addressDigest = SHA256.hash(data: Array(key.utf8)).withUnsafeBytes { Array($0) }
        let now = clock()
        let second = now / 1000
        let queued = try store.groupWrite { [outbox] connection in
            try connection.execute(
                "DELETE FROM password_reset_requests WHERE requested_at <= ?", [.integer(second - Self.requestWindow)])
            let user = try connection.queryFirst(
                "SELECT id, email FROM users WHERE email_key = ? AND email_verified = 1 AND deleted_at IS NULL",
                [.text(key)]
            ) { (id: $0.int64(0), address: $0.text(1)) }
            let sent = try connection.queryFirst(
                "SELECT count(*) FROM password_reset_requests WHERE address_digest = ? AND sent = 1", [.blob(addressDigest)]
            ) { $0.int(0) } ?? 0
            let recipient = sent < Self.messagesPerHour && outbox != nil ? user : nil
            try connection.execute(
                "INSERT INTO password_reset_requests (address_digest, requested_at, sent) VALUES (?, ?, ?)",
                [.blob(addressDigest), .integer(second), .integer(recipient == nil ? 0 : 1)])
            if let recipient, let outbox {
                try outbox.enqueue(
                    kind: AccountMail.Kind.passwordReset.rawValue, userID: recipient.id, recipient: recipient.address,
                    now: now, in: connection)
            }
            return recipient != nil
        }
        if queued { outbox?.announce() }
    }

    /// Sets `newPassword` for the user of the reset `token`, ends the user's sessions and
    /// their other reset tokens, and opens a new session for a request from
    /// `clientAddress` with `userAgent`.
    /// - Throws: `invalidField("token")` for a token that is not one that works (never
    ///   sent, used, expired, its user gone); `invalidField("newPassword")` for a password
    ///   refused as at registration, and the hasher's refusals, all before the token is used.
    public func confirm(token: String, newPassword: String, clientAddress: String, userAgent: String?) throws -> Session {
        let unusable = AccountsError.invalidField(
            field: "token", reason: "does not work: it was never sent, was used, or expired; ask for a new one")
        guard let digest = AccessToken.digest(token) else { throw unusable }
        try policy.validateNewPassword(newPassword, field: "newPassword")
        let second = clock() / 1000
        let userID = try store.read { connection in
            try connection.queryFirst(
                """
                SELECT password_resets.user_id FROM password_resets JOIN users ON users.id = password_resets.user_id
                WHERE password_resets.token_hash = ? AND password_resets.expires_at > ? AND users.deleted_at IS NULL
                """,
                [.blob(digest), .integer(second)]
            ) { $0.int64(0) }
        }
        guard let userID else { throw unusable }
        let hash = try hasher.hash(newPassword, clientAddress: clientAddress)
        let now = clock() / 1000
        return try store.groupWrite { connection in
            try connection.lockRows("SELECT 1 FROM users WHERE id = ?", [.integer(userID)])
            // Used once: of two confirmations racing, the second deletes nothing.
            try connection.execute(
                "DELETE FROM password_resets WHERE token_hash = ? AND expires_at > ?", [.blob(digest), .integer(now)])
            guard connection.changes == 1, let user = try User.stored(userID, in: connection) else { throw unusable }
            try connection.execute(
                "UPDATE users SET password_hash = ? WHERE id = ?", [.text(hash.encoded), .integer(userID)])
            try connection.execute("DELETE FROM tokens WHERE user_id = ?", [.integer(userID)])
            try connection.execute("DELETE FROM password_resets WHERE user_id = ?", [.integer(userID)])
            // Wakes the user's held `GET /sync?wait=`, which then finds its token gone.
            try connection.announceChange(ofUser: userID)
            return try Sessions.issue(for: userID, user: user, userAgent: userAgent, now: now, in: connection)
        }
    }

    /// The token the message of outbox row `entry` carries, made now and its digest
    /// stored, in the sender's claiming transaction; nil when the message no longer
    /// applies (the address is no longer the user's verified one, the user is gone).
    static func mintToken(
        for entry: OutboxEntry, userID: Int64, now: Int64, in connection: any UserDataConnection
    ) throws -> String? {
        let second = now / 1000
        let current = try connection.queryFirst(
            "SELECT 1 FROM users WHERE id = ? AND email_key = ? AND email_verified = 1 AND deleted_at IS NULL",
            [.integer(userID), .text(EmailPolicy.key(entry.recipient))]
        ) { _ in true } ?? false
        guard current else { return nil }
        let token = AccessToken.generate()
        guard let digest = AccessToken.digest(token) else { preconditionFailure("a generated token is always well formed") }
        try connection.execute("DELETE FROM password_resets WHERE expires_at <= ?", [.integer(second)])
        try connection.execute(
            "INSERT INTO password_resets (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
            [.blob(digest), .integer(userID), .integer(second), .integer(second + tokenLifetime)])
        return token
    }
}
