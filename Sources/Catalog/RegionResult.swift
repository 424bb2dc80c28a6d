/// The answer to a region query: the first `limit` matches by photo count
/// (descending), then locationID, and how many matched in all.
public struct RegionResult: Sendable, Equatable {
    public let matches: [RegionMatch]
    /// Locations matching before the limit was applied.
    public let total: Int

    public var truncated: Bool { total > matches.count }
}
