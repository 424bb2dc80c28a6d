/// The order of clusters (matching photos descending, then the representative's
/// location index, which is `locationID` order) packed with a cluster's position into
/// one `UInt64`, so that sorting them is sorting plain integers: no comparison closure,
/// which profiling showed to cost more than the rest of a whole-city query.
///
/// From the high bits down: the photos the cluster lacks to the catalog's total, its
/// representative, then its position among the matches (fewer than the locations).
struct ClusterOrderKey: Sendable {
    private let locationBits: Int
    private let photoTotal: Int
    /// How many low bits of a key can be non-zero.
    let bits: Int

    init(locationCount: Int, photoCount: Int) {
        locationBits = Int.bitWidth - max(locationCount, 1).leadingZeroBitCount
        photoTotal = photoCount
        bits = Int.bitWidth - max(photoCount, 1).leadingZeroBitCount + 2 * locationBits
        precondition(bits <= UInt64.bitWidth, "a catalog too large for cluster order keys")
    }

    @inline(__always)
    func key(_ cluster: Cluster, match: Int) -> UInt64 {
        UInt64(photoTotal - cluster.photoCount) << (2 * locationBits) | UInt64(cluster.representative) << locationBits
            | UInt64(match)
    }

    /// The match position a key was made with.
    @inline(__always)
    func match(_ key: UInt64) -> Int {
        Int(key & (1 << locationBits - 1))
    }
}
