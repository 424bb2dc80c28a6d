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
///
/// The entries live in a buffer the caller lends (on its stack) until ties within the
/// margin outgrow it, then in one this value allocates and frees: an insertion is a
/// few loads and stores, with no uniqueness or bounds check.
struct ChordCandidates: ~Copyable {
    typealias Entry = (slot: Int, chordSquared: Double)

    /// Entries beyond `limit` a lent buffer should hold: ties within the margin are
    /// rare, so `limit + tieRoom` entries almost never move to the heap.
    static let tieRoom = 8

    /// Nearest first; the first `count` are initialized.
    private var storage: UnsafeMutablePointer<Entry>
    private var capacity: Int
    /// Whether `storage` was allocated here, when the lent buffer filled, and is freed here.
    private var ownsStorage = false
    private var count = 0
    private let limit: Int
    /// The squared chord length a newcomer must not exceed.
    private(set) var boundSquared: Double

    /// - Parameters:
    ///   - chordBound: a chord length no candidate exceeds (from the search radius).
    ///   - buffer: where the entries go while they fit; used only during this value's life.
    init(limit: Int, chordBound: Double, buffer: UnsafeMutableBufferPointer<Entry>) {
        precondition(buffer.count > 0, "ChordCandidates needs room for an entry")
        self.limit = limit
        boundSquared = chordBound * chordBound
        storage = buffer.baseAddress!
        capacity = buffer.count
    }

    deinit {
        if ownsStorage { storage.deallocate() }
    }

    /// The candidates, nearest by chord first; valid until the next insertion.
    var entries: UnsafeBufferPointer<Entry> {
        UnsafeBufferPointer(start: storage, count: count)
    }

    /// Adds a slot whose squared chord is within `boundSquared`, then tightens the bound
    /// and drops the entries beyond it.
    mutating func insert(slot: Int, chordSquared: Double) {
        if count == capacity { grow() }
        var insertion = count
        while insertion > 0, storage[insertion - 1].chordSquared > chordSquared {
            storage[insertion] = storage[insertion - 1]
            insertion -= 1
        }
        storage[insertion] = (slot, chordSquared)
        count += 1
        guard count >= limit else { return }
        let bound = GreatCircle.chordBound(forChord: storage[limit - 1].chordSquared.squareRoot())
        boundSquared = min(boundSquared, bound * bound)
        while count > 0, storage[count - 1].chordSquared > boundSquared { count -= 1 }
    }

    /// Moves the entries to an allocation twice the size.
    private mutating func grow() {
        let larger = UnsafeMutablePointer<Entry>.allocate(capacity: capacity * 2)
        larger.initialize(from: storage, count: count)
        if ownsStorage { storage.deallocate() }
        storage = larger
        capacity *= 2
        ownsStorage = true
    }
}
