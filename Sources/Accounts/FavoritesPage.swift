/// One page of a user's favorites, newest first.
public struct FavoritesPage: Sendable, Equatable {
    public let favorites: [Favorite]
    /// Pass back as `cursor` for the next page; nil on the last page.
    public let nextCursor: String?

    public init(favorites: [Favorite], nextCursor: String?) {
        self.favorites = favorites
        self.nextCursor = nextCursor
    }
}
