import HTTPServer

/// The per-user rules of fair use: the quotas of kept walks and favorites (a `409`)
/// and the write rate (`UserWriteLimiter`, a `429`).
extension RefusalRule {
    /// A new walk past `WalkRules.maximumWalks`.
    static let walks = RefusalRule("walks")
    /// A new favorite past `Favorites.maximum`.
    static let favorites = RefusalRule("favorites")
    /// A write past the user's `--user-write-rate`.
    static let userWrites = RefusalRule("user-writes")
}
