/// One page of a user's walks, most recently started first.
public struct WalksPage: Sendable, Equatable {
    public let walks: [Walk]
    /// Pass back as `cursor` for the next page; nil on the last page.
    public let nextCursor: String?
}
