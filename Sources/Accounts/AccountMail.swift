import Crypto
import Mail
import UserData

/// The messages accounts send, written as the outbox sends them (`OutboxComposer`):
/// what each kind says, with the secret it carries made at that moment
/// (`EmailVerification.mintCode`, `PasswordReset.mintToken`). The texts are plain and
/// short, name the account, and say what to do when the reader asked for nothing.
final class AccountMail: OutboxComposer {
    /// What an outbox row of `Accounts` is about (its `kind`).
    enum Kind: String {
        /// A 6-digit code for the user's unverified address.
        case emailVerification
        /// A reset token for the user's verified address.
        case passwordReset
        /// To an address that was the user's verified one: it was replaced or removed.
        case emailChanged
    }

    /// Keys the verification codes' digests (`EmailVerification`).
    private let codeKey: SymmetricKey

    init(codeKey: SymmetricKey) {
        self.codeKey = codeKey
    }

    func compose(_ entry: OutboxEntry, now: Int64, in connection: any UserDataConnection) throws -> MailContent? {
        guard let kind = Kind(rawValue: entry.kind), let userID = entry.userID else { return nil }
        let username = try connection.queryFirst(
            "SELECT username FROM users WHERE id = ? AND deleted_at IS NULL", [.integer(userID)]
        ) { $0.text(0) }
        guard let username else { return nil }
        switch kind {
        case .emailVerification:
            guard let code = try EmailVerification.mintCode(for: entry, userID: userID, key: codeKey, now: now, in: connection)
            else { return nil }
            return MailContent(
                subject: "Your PAST NYC verification code",
                text: """
                    Your code to verify this address for the PAST NYC account "\(username)" is

                        \(code)

                    Enter it where you set the address. It works for one hour.

                    If you did not ask for it, ignore this message: the address stays unverified.
                    """)
        case .passwordReset:
            guard let token = try PasswordReset.mintToken(for: entry, userID: userID, now: now, in: connection)
            else { return nil }
            return MailContent(
                subject: "Reset your PAST NYC password",
                text: """
                    Someone, we hope you, asked to reset the password of the PAST NYC account "\(username)".
                    Your reset token, good for one use within 30 minutes:

                        \(token)

                    Paste it with your new password in the app, or on the map under "Forgot password?".
                    Every device signed in to the account will be signed out.

                    If you did not ask for it, ignore this message: your password stays as it is.
                    """)
        case .emailChanged:
            return MailContent(
                subject: "The email address of your PAST NYC account changed",
                text: """
                    This address is no longer the email address of the PAST NYC account "\(username)":
                    it was replaced or removed.

                    If you did not do this, sign in with your password, change it (which signs out
                    every other device), and set this address again.
                    """)
        }
    }
}
