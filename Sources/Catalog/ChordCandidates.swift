/// The candidates of a k-nearest search, found by chord length alone: the `limit`
/// nearest by chord, plus any others within the margin of `GreatCircle.chordBound(forChord:)`
/// of the `limit`-th, so the `limit` nearest by haversine distance (ties by location
/// index) are always among them, though perhaps in another order.
///
/// Why that holds: a point whose computed chord exceeds the `limit`-th one enlarged by
/// the margin is truly farther than each of those `limit` points, by at least 1e-9 of
/// the Earth's radius (about 6 mm): far more than the rounding of the haversine formula
/// (which grows near the antipode, but no faster than the gap in angle a chord margin
/// makes there). So all `limit` have strictly smaller computed haversine distances,
/// and the point cannot be in the result.
struct ChordCandidates {
    /// Slots and their squared chord lengths to the query, nearest first.
    private(set) var entries: [(slot: Int, chordSquared: Double)] = []
    let limit: Int
    /// The squared chord length a newcomer must not exceed.
    private(set) var boundSquared: Double

    /// - Parameter chordBound: a chord length no candidate exceeds (from the search radius).
    init(limit: Int, chordBound: Double) {
        self.limit = limit
        boundSquared = chordBound * chordBound
        entries.reserveCapacity(limit + 1)
    }

    /// Adds a slot whose squared chord is within `boundSquared`, then tightens the bound
    /// and drops the entries beyond it.
    mutating func insert(slot: Int, chordSquared: Double) {
        var insertion = entries.count
        entries.append((slot, chordSquared))
        while insertion > 0, entries[insertion - 1].chordSquared > chordSquared {
            entries[insertion] = entries[insertion - 1]
            insertion -= 1
        }
        entries[insertion] = (slot, chordSquared)
        guard entries.count >= limit else { return }
        let bound = GreatCircle.chordBound(forChord: entries[limit - 1].chordSquared.squareRoot())
        boundSquared = min(boundSquared, bound * bound)
        while let last = entries.last, last.chordSquared > boundSquared { entries.removeLast() }
    }
}
