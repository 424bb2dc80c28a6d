import Catalog
import Explore
import Gzip
import Synchronization

/// The rendered `/clusters` answers of recent queries, kept by their normalized query.
///
/// A map asks for the same tile-aligned boxes again and again, and the catalog never
/// changes while the server runs, so an answer once rendered is sent again as it is:
/// its body (and, once a client asked for it, its gzip), and its ETag. A hit copies
/// nothing: the arrays are immutable and shared with the response, which the server
/// writes to the socket straight from them.
///
/// Bounded by bytes (`capacity`: the storage of bodies and their gzip variants, kept
/// at their exact size, plus `entryOverhead` each); past it, entries go in clock order (second chance: an entry
/// used since the hand last passed it stays one more round). An answer larger than
/// `capacity / 8` is never kept. One lock guards it all, held for a dictionary lookup:
/// the event loops seldom meet there.
final class ClusterResponseCache: Sendable {
    /// A query's identity as its ETag has it: the box by its bit patterns, so that `-0`
    /// and `0`, equal as numbers but tagged apart, stay apart here too.
    struct Key: Hashable, Sendable {
        var south: UInt64
        var west: UInt64
        var north: UInt64
        var east: UInt64
        var zoom: Int
        var limit: Int
        var filter: PhotoFilter

        init(_ query: ClusterQuery) {
            south = query.south.bitPattern
            west = query.west.bitPattern
            north = query.north.bitPattern
            east = query.east.bitPattern
            zoom = query.zoom
            limit = query.limit
            filter = query.filter
        }
    }

    /// A rendered answer.
    struct Answer: Sendable {
        let body: [UInt8]
        let etag: String
    }

    private struct Slot {
        let key: Key
        let answer: Answer
        var gzipped: [UInt8]?
        /// Used since the clock's hand last passed.
        var referenced: Bool

        var byteCount: Int { answer.body.capacity + (gzipped?.capacity ?? 0) + ClusterResponseCache.entryOverhead }
    }

    private struct State {
        var slots: [Slot] = []
        var positions: [Key: Int] = [:]
        var hand = 0
        var storedBytes = 0
    }

    /// What an entry costs beyond its bodies: its key, tag and bookkeeping.
    static let entryOverhead = 256

    /// Bytes kept at most.
    let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The bytes held now (bodies, gzip variants and `entryOverhead` per entry).
    var storedBytes: Int { state.withLock { $0.storedBytes } }

    /// How many answers are held now.
    var count: Int { state.withLock { $0.slots.count } }

    /// The answer to `key`, rendered by `render` and kept when it is not held yet.
    func answer(_ key: Key, render: () -> Answer) -> Answer {
        let held = state.withLock { state -> Answer? in
            guard let position = state.positions[key] else { return nil }
            state.slots[position].referenced = true
            return state.slots[position].answer
        }
        if let held { return held }
        let rendered = render()
        let answer = Answer(body: Self.compacted(rendered.body), etag: rendered.etag)
        keep(Slot(key: key, answer: answer, gzipped: nil, referenced: false))
        return answer
    }

    /// The gzip of `answer`'s body (`Gzip.compress`, as the server would make it), made
    /// once and kept beside the answer while it is held.
    func gzipped(_ key: Key, _ answer: Answer) -> [UInt8]? {
        let held = state.withLock { state -> [UInt8]? in
            guard let position = state.positions[key] else { return nil }
            return state.slots[position].gzipped
        }
        if let held { return held }
        guard let made = try? Gzip.compress(answer.body) else { return nil }
        let compressed = Self.compacted(made)
        state.withLock { state in
            guard let position = state.positions[key], state.slots[position].gzipped == nil else { return }
            let bytes = compressed.capacity
            guard state.slots[position].byteCount + bytes <= capacity / 8 else { return }
            state.slots[position].gzipped = compressed
            state.storedBytes += bytes
            Self.evict(&state, toFit: 0, capacity: capacity, sparing: key)
        }
        return compressed
    }

    /// The bytes in storage of their exact size: a rendered body is reserved for its
    /// estimate, and zlib's output for its bound, which a kept copy would hold for nothing.
    private static func compacted(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.capacity > bytes.count else { return bytes }
        return [UInt8](unsafeUninitializedCapacity: bytes.count) { buffer, initialized in
            initialized = buffer.initialize(fromContentsOf: bytes)
        }
    }

    private func keep(_ slot: Slot) {
        guard slot.byteCount <= capacity / 8 else { return }
        state.withLock { state in
            guard state.positions[slot.key] == nil else { return }
            Self.evict(&state, toFit: slot.byteCount, capacity: capacity, sparing: nil)
            state.positions[slot.key] = state.slots.count
            state.slots.append(slot)
            state.storedBytes += slot.byteCount
        }
    }

    /// Drops entries in clock order until `bytes` more fit, never the one of `sparing`.
    private static func evict(_ state: inout State, toFit bytes: Int, capacity: Int, sparing: Key?) {
        while state.storedBytes + bytes > capacity, state.slots.count > (sparing == nil ? 0 : 1) {
            if state.hand >= state.slots.count { state.hand = 0 }
            let position = state.hand
            if state.slots[position].referenced || state.slots[position].key == sparing {
                state.slots[position].referenced = false
                state.hand += 1
                continue
            }
            state.storedBytes -= state.slots[position].byteCount
            state.positions[state.slots[position].key] = nil
            let last = state.slots.removeLast()
            if position < state.slots.count {
                state.slots[position] = last
                state.positions[last.key] = position
            }
        }
    }
}
