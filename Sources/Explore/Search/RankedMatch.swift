/// A photo matching a full-text query, and its `bm25()` rank: smaller is more relevant.
struct RankedMatch: Sendable {
    /// The photo's index in `PhotoCatalog.photos` (its rowid in the index).
    let photo: Int32
    let rank: Double
}
