/// A cluster found by a query, and whether it is a whole grid cell as precomputed.
public struct ClusterMatch: Sendable, Equatable {
    public var cluster: Cluster
    /// The index of its cell in `ClusterGrid.cells` of the query's zoom.
    public var cell: Int
    /// Whether `cluster` equals `ClusterGrid.cells[cell]`: every location of the cell
    /// lies in the box and no filter removed a photo. Its encoding can then be reused.
    public var isWholeCell: Bool
}
