/// The answer to a cluster query: the first `limit` clusters by `photoCount`
/// (descending), then their representative's `locationID`, and how many there were.
public struct ClusterResult: Sendable, Equatable {
    public let zoom: Int
    public let matches: [ClusterMatch]
    /// Clusters before the limit was applied.
    public let total: Int

    public var truncated: Bool { total > matches.count }
}
