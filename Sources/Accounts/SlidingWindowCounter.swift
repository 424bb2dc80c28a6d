import Foundation
import Synchronization

/// The events of a `SlidingWindow` per key, in memory, for a store that one instance
/// owns (SQLite): a restart forgets them.
///
/// Memory stays bounded whatever clients send: each key keeps at most `limit` times,
/// and once the table holds `pruneThreshold` keys, the keys with no event left in the
/// window are dropped before the next one is added. Every event counted here cost the
/// client a password hash (a failed login, a registration), and the hasher bounds how
/// many run per second, so the keys alive in a window stay few; the threshold doubles
/// while they do not fit, so pruning costs amortized O(1) per event.
final class SlidingWindowCounter<Key: Hashable & Sendable>: Sendable {
    private struct State {
        /// Event times per key, oldest first, at most `limit` each.
        var events: [Key: [TimeInterval]] = [:]
        var pruneAt: Int
    }

    let rule: SlidingWindow
    private let pruneThreshold: Int
    private let state: Mutex<State>

    init(_ rule: SlidingWindow, pruneThreshold: Int = 10_000) {
        self.rule = rule
        self.pruneThreshold = pruneThreshold
        state = Mutex(State(pruneAt: pruneThreshold))
    }

    /// Seconds until `key` may have one more event, nil when it may now.
    func retryAfter(_ key: Key, now: Date) -> Int? {
        let times = state.withLock { $0.events[key] ?? [] }
        return rule.retryAfter(times, now: now.timeIntervalSince1970)
    }

    func record(_ key: Key, now: Date) {
        let now = now.timeIntervalSince1970
        let start = rule.start(now: now)
        state.withLock { state in
            if state.events.count >= state.pruneAt {
                state.events = state.events.filter { _, times in times.contains { $0 > start } }
                state.pruneAt = max(pruneThreshold, state.events.count * 2)
            }
            var times = state.events[key, default: []].filter { $0 > start }
            times.append(now)
            state.events[key] = Array(times.suffix(rule.limit))
        }
    }

    /// Forgets `key`'s events.
    func clear(_ key: Key) {
        _ = state.withLock { $0.events.removeValue(forKey: key) }
    }

    /// Keys held right now, for the tests of the bound.
    var keyCount: Int {
        state.withLock { $0.events.count }
    }
}
