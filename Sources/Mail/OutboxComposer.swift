import UserData

/// Writes the messages of the outbox's rows as they are sent, in the transaction
/// that claims each one: a secret a message carries (a code, a reset token) is made
/// then and stored only as its digest, in the same commit as the claim, so the outbox
/// never holds it. Implemented by the module whose rows they are (`AccountMail`).
public protocol OutboxComposer: Sendable {
    /// The content of `entry`, at `now` (Unix milliseconds), written with `connection`
    /// (in the claiming transaction; the user's row is not locked); nil when the
    /// message no longer applies (a newer one replaced it, its address changed), which
    /// finishes it unsent.
    func compose(_ entry: OutboxEntry, now: Int64, in connection: any UserDataConnection) throws -> MailContent?
}
