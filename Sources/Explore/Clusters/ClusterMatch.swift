/// A cluster found by a query, by reference: its grid cell, and its part of the cell
/// when the box or the filter left out some of the cell's locations or photos.
/// (Small, so ordering and returning hundreds of them copies little.)
public struct ClusterMatch: Sendable, Equatable {
    /// The index of its cell in `ClusterGrid.cells` of the query's zoom.
    public let cell: Int
    /// Its index in `ClusterResult.parts`, or -1 when it is the whole cell.
    let part: Int

    /// Whether the cluster is `ClusterGrid.cells[cell]`, as precomputed: every location
    /// of the cell lies in the box and the filter removed none of their photos.
    public var isWholeCell: Bool { part < 0 }
}
