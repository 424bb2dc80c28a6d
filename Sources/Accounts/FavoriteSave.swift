/// The outcome of saving a favorite: the favorite as stored, and whether this
/// call created it (an existing one keeps its `savedAt` and place).
public struct FavoriteSave: Sendable, Equatable {
    public let favorite: Favorite
    public let created: Bool
}
