/// One answer of `GET /sync`, before its items' states are read: which items changed
/// (oldest change first), the token to continue from, and whether more are waiting.
public struct ChangesPage: Sendable, Equatable {
    public let changes: [LoggedChange]
    public let next: String
    public let more: Bool
}
