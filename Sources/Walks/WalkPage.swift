/// A walk with one page of its entries, most recently added first.
public struct WalkPage: Sendable, Equatable {
    public let walk: Walk
    public let entries: [WalkEntry]
    /// Pass back as `cursor` for the next page; nil on the last page.
    public let nextCursor: String?
}
