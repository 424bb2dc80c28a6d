/// One row of the change log: the item that changed (its kind and key) and whether
/// it was deleted by its latest change. The item's state is read from its own table.
public struct LoggedChange: Sendable, Equatable {
    public let kind: ChangeKind
    /// The walk's public ID, its bytes in base64url as walk IDs are written (`walk`,
    /// `walkEntry`); empty otherwise.
    public let walkID: String
    /// The photo (`favorite`, `recent`, `walkEntry`); empty otherwise.
    public let photoID: String
    public let deleted: Bool
}
