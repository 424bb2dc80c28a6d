/// The answer to a cluster query: the first `limit` clusters by `photoCount`
/// (descending), then their representative's `locationID`, and how many there were.
public struct ClusterResult: Sendable {
    public let zoom: Int
    public let matches: [ClusterMatch]
    /// Clusters before the limit was applied.
    public let total: Int
    /// The grid's whole cells, which most matches refer to (shared, not copied).
    private let cells: [Cluster]
    /// The clusters that are parts of cells.
    private let parts: [Cluster]

    init(zoom: Int, matches: [ClusterMatch], total: Int, cells: [Cluster], parts: [Cluster]) {
        self.zoom = zoom
        self.matches = matches
        self.total = total
        self.cells = cells
        self.parts = parts
    }

    public var truncated: Bool { total > matches.count }

    /// The cluster a match refers to.
    public func cluster(_ match: ClusterMatch) -> Cluster {
        match.isWholeCell ? cells[match.cell] : parts[match.part]
    }
}
