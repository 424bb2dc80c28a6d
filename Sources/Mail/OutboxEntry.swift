/// One message of the outbox as the sender claimed it: what the composer needs to
/// write it (`OutboxComposer`), and where it goes.
public struct OutboxEntry: Sendable, Equatable {
    /// The row's `id` in `mail_outbox`.
    public let id: Int64
    public let messageID: String
    /// What the message is about, named by the module that wrote it (`Outbox.enqueue`).
    public let kind: String
    /// The user the message concerns; nil for none.
    public let userID: Int64?
    public let recipient: String
    /// Attempts made before this one.
    public let attempts: Int
}
