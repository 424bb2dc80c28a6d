import Crypto
import Foundation
import Mail
import UserData

/// A user's optional email address and its verification: an address set with
/// `PATCH /users/me` is kept unverified, and a message with a 6-digit code goes to it;
/// the code sent back (`verify`) verifies it. A verified address belongs to one account
/// (the unique index `users_by_verified_email`); any number may hold it unverified, and
/// the first to verify it wins.
///
/// Codes: each one asked for (the PATCH's, `resend`'s) is a row of `email_codes`, and
/// the newest row is the only one that works, so a new code voids the old at once. The
/// code itself is made when its message is sent (`mintCode`, in the outbox's claiming
/// transaction), and only its HMAC (keyed with a server secret) is stored: the outbox
/// never holds it. A code works for `codeLifetime` after it is sent and for
/// `attemptsPerCode` wrong guesses; a user asks for at most `codesPerHour`. A guess is
/// one in a million, so an account gets at most 25 guesses an hour at its address.
public struct EmailVerification: Sendable {
    public static let codesPerHour = 5
    public static let attemptsPerCode = 5
    /// How long a code works after its message is sent: an hour, in seconds.
    public static let codeLifetime: Int64 = 60 * 60
    static let codeWindow = SlidingWindow(limit: codesPerHour, window: 60 * 60)

    let store: any UserDataStore
    /// Nil when the server sends no mail.
    let outbox: Outbox?
    /// Keys the codes' stored digests.
    let codeKey: SymmetricKey
    /// The current time in Unix milliseconds.
    let clock: @Sendable () -> Int64

    /// Checks the email of a profile patch before anything is written.
    /// - Throws: `invalidField("email")` for an address that breaks the rule, or any
    ///   address when this server sends no mail.
    func validate(_ email: PatchedField<String>) throws {
        guard case .set(let address) = email else { return }
        try EmailPolicy.validate(address, field: "email")
        guard outbox != nil else {
            throw AccountsError.invalidField(field: "email", reason: "cannot be set: this server sends no mail")
        }
    }

    /// Applies a profile patch's email, validated, in the patch's write transaction (the
    /// user's row locked): a new address is kept unverified and a code goes to it; the
    /// same address in another case only changes how it is written; `nil` removes it.
    /// Replacing or removing a verified address tells that address, and voids the reset
    /// tokens sent to it. Returns whether anything changed.
    /// - Throws: `emailTaken` when another account verified the address;
    ///   `tooManyVerificationCodes` past `codesPerHour`.
    func apply(_ email: PatchedField<String>, userID: Int64, in connection: any UserDataConnection) throws -> Bool {
        let now = clock()
        let current = try connection.queryFirst(
            "SELECT email, email_key, email_verified FROM users WHERE id = ?", [.integer(userID)]
        ) { (address: $0.optionalText(0), key: $0.optionalText(1), verified: $0.int(2) == 1) }
        guard let current else { throw AccountsError.invalidToken }
        let address: String?
        switch email {
        case .unchanged: return false
        case .cleared: address = nil
        case .set(let value): address = value
        }
        let key = address.map(EmailPolicy.key)
        if key == current.key {
            guard let address, address != current.address else { return false }
            try connection.execute("UPDATE users SET email = ? WHERE id = ?", [.text(address), .integer(userID)])
            return true
        }
        if let key {
            let taken = try connection.queryFirst(
                "SELECT 1 FROM users WHERE email_key = ? AND email_verified = 1 AND id <> ?", [.text(key), .integer(userID)]
            ) { _ in true } ?? false
            guard !taken else { throw AccountsError.emailTaken }
        }
        try connection.execute(
            "UPDATE users SET email = ?, email_key = ?, email_verified = 0 WHERE id = ?",
            [address.map { .text($0) } ?? .null, key.map { .text($0) } ?? .null, .integer(userID)])
        try connection.execute("DELETE FROM password_resets WHERE user_id = ?", [.integer(userID)])
        if current.verified, let previous = current.address, let outbox {
            try outbox.enqueue(
                kind: AccountMail.Kind.emailChanged.rawValue, userID: userID, recipient: previous, now: now, in: connection)
        }
        if let address { try queueCode(to: address, userID: userID, now: now, in: connection) }
        return true
    }

    /// Checks `code` against the user's live code and, when it is right, verifies the
    /// address; returns the user as verified.
    /// - Throws: `invalidField("code")` for a code that is not 6 digits (not counted),
    ///   a wrong one (counted), or none that works (void, expired, not sent yet);
    ///   `noEmailToVerify`, `emailAlreadyVerified`; `emailTaken` when another account
    ///   verified the address first.
    public func verify(_ authenticated: AuthenticatedUser, code: String) throws -> User {
        guard code.utf8.count == 6, code.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            throw AccountsError.invalidField(field: "code", reason: "must be a string of 6 digits")
        }
        let now = clock()
        let outcome: Verification
        do {
            outcome = try store.groupWrite { [codeKey] connection in
                try Accounts.lockUser(authenticated, in: connection)
                let key = try Self.pendingAddress(of: authenticated.userID, in: connection).key
                let live = try connection.queryFirst(
                    "SELECT sequence, code_digest, sent_at, failures FROM email_codes WHERE user_id = ? ORDER BY sequence DESC LIMIT 1",
                    [.integer(authenticated.userID)]
                ) { row in
                    row.isNull(1) ? nil : (sequence: row.int64(0), digest: row.blob(1), sentAt: row.int64(2), failures: row.int(3))
                } ?? nil
                guard let live, live.failures < Self.attemptsPerCode, live.sentAt + Self.codeLifetime > now / 1000 else {
                    return .void
                }
                guard SecretBytes.constantTimeEquals(Self.digest(code, sequence: live.sequence, key: codeKey), live.digest) else {
                    try connection.execute(
                        "UPDATE email_codes SET failures = failures + 1 WHERE sequence = ?", [.integer(live.sequence)])
                    return .wrong(left: Self.attemptsPerCode - live.failures - 1)
                }
                let taken = try connection.queryFirst(
                    "SELECT 1 FROM users WHERE email_key = ? AND email_verified = 1 AND id <> ?",
                    [.text(key), .integer(authenticated.userID)]
                ) { _ in true } ?? false
                guard !taken else { throw AccountsError.emailTaken }
                try connection.execute(
                    "UPDATE users SET email_verified = 1 WHERE id = ?", [.integer(authenticated.userID)])
                try connection.execute(
                    "UPDATE email_codes SET code_digest = NULL WHERE user_id = ?", [.integer(authenticated.userID)])
                try ChangeLog.record(.profile, userID: authenticated.userID, at: now / 1000, in: connection)
                guard let user = try User.stored(authenticated.userID, in: connection) else { throw AccountsError.invalidToken }
                return .verified(user)
            }
        } catch let error as UserDataError where error.isConstraintViolation {
            // The unique index: another account verified the address in between.
            throw AccountsError.emailTaken
        }
        switch outcome {
        case .verified(let user):
            return user
        case .wrong(let left):
            throw AccountsError.invalidField(
                field: "code",
                reason: left > 0 ? "is wrong (\(left) more tries with this code)" : "is wrong, and no longer works: ask for a new one")
        case .void:
            throw AccountsError.invalidField(field: "code", reason: "does not work (none was sent, or it expired or was used up): ask for a new one")
        }
    }

    /// Sends a new code to the user's unverified address, voiding the one before.
    /// - Throws: `noEmailToVerify`, `emailAlreadyVerified`; `tooManyVerificationCodes`
    ///   past `codesPerHour`; `invalidField("email")` when this server sends no mail.
    public func resend(_ authenticated: AuthenticatedUser) throws {
        guard let outbox else {
            throw AccountsError.invalidField(field: "email", reason: "cannot be verified: this server sends no mail")
        }
        let now = clock()
        try store.groupWrite { connection in
            try Accounts.lockUser(authenticated, in: connection)
            let pending = try Self.pendingAddress(of: authenticated.userID, in: connection)
            try queueCode(to: pending.address, userID: authenticated.userID, now: now, in: connection)
        }
        outbox.announce()
    }

    /// Rings the sender after a committed patch that queued mail.
    func announce() {
        outbox?.announce()
    }

    /// The code the message of outbox row `entry` carries, made now and its digest
    /// stored, in the sender's claiming transaction; nil when the message no longer
    /// applies: a newer code was asked for, the address changed or was verified, the
    /// user is gone.
    static func mintCode(
        for entry: OutboxEntry, userID: Int64, key: SymmetricKey, now: Int64, in connection: any UserDataConnection
    ) throws -> String? {
        let live = try connection.queryFirst(
            "SELECT sequence, message FROM email_codes WHERE user_id = ? ORDER BY sequence DESC LIMIT 1", [.integer(userID)]
        ) { (sequence: $0.int64(0), message: $0.int64(1)) }
        let pending = try connection.queryFirst(
            "SELECT 1 FROM users WHERE id = ? AND email_key = ? AND email_verified = 0 AND deleted_at IS NULL",
            [.integer(userID), .text(EmailPolicy.key(entry.recipient))]
        ) { _ in true } ?? false
        guard let live, live.message == entry.id, pending else { return nil }
        // Six digits from the system's CSPRNG, every one of the million equally likely.
        let digits = String(Int.random(in: 0..<1_000_000))
        let code = String(repeating: "0", count: 6 - digits.count) + digits
        try connection.execute(
            "UPDATE email_codes SET code_digest = ?, sent_at = ?, failures = 0 WHERE sequence = ?",
            [.blob(digest(code, sequence: live.sequence, key: key)), .integer(now / 1000), .integer(live.sequence)])
        return code
    }

    private enum Verification: Sendable {
        case verified(User)
        case wrong(left: Int)
        case void
    }

    /// Queues a code's message to `address`, within `codesPerHour`.
    private func queueCode(to address: String, userID: Int64, now: Int64, in connection: any UserDataConnection) throws {
        guard let outbox else { return }
        let second = now / 1000
        let hourAgo = second - Int64(Self.codeWindow.window)
        let times = try connection.query(
            "SELECT requested_at FROM email_codes WHERE user_id = ? AND requested_at > ?",
            [.integer(userID), .integer(hourAgo)]
        ) { TimeInterval($0.int64(0)) }
        if let retryAfter = Self.codeWindow.retryAfter(times, now: TimeInterval(second)) {
            throw AccountsError.tooManyVerificationCodes(retryAfterSeconds: retryAfter)
        }
        // The rows out of the window counted for nothing any more, and the new row voids their codes.
        try connection.execute(
            "DELETE FROM email_codes WHERE user_id = ? AND requested_at <= ?", [.integer(userID), .integer(hourAgo)])
        let message = try outbox.enqueue(
            kind: AccountMail.Kind.emailVerification.rawValue, userID: userID, recipient: address, now: now, in: connection)
        try connection.execute(
            "INSERT INTO email_codes (user_id, message, requested_at) VALUES (?, ?, ?)",
            [.integer(userID), .integer(message), .integer(second)])
    }

    /// The user's address, and its key, when it awaits verification.
    /// - Throws: `noEmailToVerify`, `emailAlreadyVerified`; `invalidToken` for a user gone.
    private static func pendingAddress(
        of userID: Int64, in connection: any UserDataConnection
    ) throws -> (address: String, key: String) {
        let row = try connection.queryFirst(
            "SELECT email, email_key, email_verified FROM users WHERE id = ? AND deleted_at IS NULL", [.integer(userID)]
        ) { (address: $0.optionalText(0), key: $0.optionalText(1), verified: $0.int(2) == 1) }
        guard let row else { throw AccountsError.invalidToken }
        guard let address = row.address, let key = row.key else { throw AccountsError.noEmailToVerify }
        guard !row.verified else { throw AccountsError.emailAlreadyVerified }
        return (address, key)
    }

    /// HMAC-SHA256 of the code and its row: a copy of the table alone tells no code.
    private static func digest(_ code: String, sequence: Int64, key: SymmetricKey) -> [UInt8] {
        let authenticator = HMAC<SHA256>.authenticationCode(for: Array("\(sequence):\(code)".utf8), using: key)
        return authenticator.withUnsafeBytes { Array($0) }
    }
}
