import Synchronization

/// The matches of recently searched phrases that match many photos.
///
/// Ranking a phrase from the postings (`SearchPostings`) and ordering its list by rank
/// costs about 0.05 µs per posting, so a common word ("street": 39,556 photos) or a
/// short prefix costs a millisecond or more, while a rare one costs microseconds. The
/// catalog never changes while the server runs, and a query's rank is the sum of its
/// phrases' ranks, so each common phrase is ranked once and then serves every query,
/// filter and page that holds it. Phrases matching fewer than `minimumCount` photos
/// are not kept (ranking them again is cheap); past `capacity` bytes in all
/// (`PhraseMatches.byteCount`), the least recently used go. The phrases are spread over
/// `shardCount` independently locked shards, each with its share of `capacity`, so the
/// event loops and workers seldom wait for one another's lookups.
final class PhraseCache: Sendable {
    static let shardCount = 8

    private struct Entry {
        let matches: PhraseMatches
        var lastUse: UInt64
    }

    private struct State {
        var entries: [SearchPhrase: Entry] = [:]
        var clock: UInt64 = 0
        var storedBytes = 0
    }

    let minimumCount: Int
    let capacity: Int
    /// A shard's state behind its own lock (a class: a `Mutex` cannot be copied into an array).
    private final class Shard: Sendable {
        let state = Mutex(State())
    }

    private let shards: [Shard]

    /// - Parameters:
    ///   - minimumCount: the fewest matches worth keeping.
    ///   - capacity: bytes of lists kept at most, over all phrases.
    init(minimumCount: Int, capacity: Int) {
        self.minimumCount = minimumCount
        self.capacity = capacity
        shards = (0..<Self.shardCount).map { _ in Shard() }
    }

    private func shard(of phrase: SearchPhrase) -> Shard {
        shards[Int(UInt(bitPattern: phrase.hashValue) % UInt(Self.shardCount))]
    }

    func matches(for phrase: SearchPhrase) -> PhraseMatches? {
        shard(of: phrase).state.withLock { state in
            guard var entry = state.entries[phrase] else { return nil }
            state.clock += 1
            entry.lastUse = state.clock
            state.entries[phrase] = entry
            return entry.matches
        }
    }

    func keep(_ matches: PhraseMatches, for phrase: SearchPhrase) {
        let shardCapacity = capacity / Self.shardCount
        guard matches.count >= minimumCount, matches.byteCount <= shardCapacity else { return }
        shard(of: phrase).state.withLock { state in
            state.clock += 1
            if let previous = state.entries.updateValue(Entry(matches: matches, lastUse: state.clock), forKey: phrase) {
                state.storedBytes -= previous.matches.byteCount
            }
            state.storedBytes += matches.byteCount
            while state.storedBytes > shardCapacity, let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                state.entries[oldest.key] = nil
                state.storedBytes -= oldest.value.matches.byteCount
            }
        }
    }
}
