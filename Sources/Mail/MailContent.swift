/// What a message says: its subject and its plain-text body (lines separated by "\n").
public struct MailContent: Sendable, Equatable {
    public let subject: String
    public let text: String

    public init(subject: String, text: String) {
        self.subject = subject
        self.text = text
    }
}
