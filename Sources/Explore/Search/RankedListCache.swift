import Synchronization

/// The relevance-ordered match lists of recent queries that matched many photos.
///
/// Ranking is the costly part of a search: FTS5's `bm25()` reads every matching row's
/// hits, about a microsecond each, so a common word ("street": 38,701 photos) costs tens
/// of milliseconds while a rare one costs microseconds. The catalog never changes while
/// the server runs, so a list, once ranked, serves every later page and every filter of
/// the same words from memory. Lists shorter than `minimumCount` are not kept (ranking
/// them again is cheap); past `capacity` photo entries in all, the least recently used
/// lists go.
final class RankedListCache: Sendable {
    private struct Entry {
        let list: [Int32]
        var lastUse: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var clock: UInt64 = 0
        var storedCount = 0
    }

    let minimumCount: Int
    let capacity: Int
    private let state = Mutex(State())

    /// - Parameters:
    ///   - minimumCount: the shortest list worth keeping.
    ///   - capacity: photo entries (4 bytes each) kept at most, over all lists.
    init(minimumCount: Int, capacity: Int) {
        self.minimumCount = minimumCount
        self.capacity = capacity
    }

    func list(for expression: String) -> [Int32]? {
        state.withLock { state in
            guard var entry = state.entries[expression] else { return nil }
            state.clock += 1
            entry.lastUse = state.clock
            state.entries[expression] = entry
            return entry.list
        }
    }

    func keep(_ list: [Int32], for expression: String) {
        guard list.count >= minimumCount, list.count <= capacity else { return }
        state.withLock { state in
            state.clock += 1
            if let previous = state.entries.updateValue(Entry(list: list, lastUse: state.clock), forKey: expression) {
                state.storedCount -= previous.list.count
            }
            state.storedCount += list.count
            while state.storedCount > capacity, let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                state.entries[oldest.key] = nil
                state.storedCount -= oldest.value.list.count
            }
        }
    }
}
