import Dispatch
import Foundation
import Synchronization
import UserData

/// When each token was last used (authenticated with), kept in memory and stored in
/// `tokens.last_used_at` (Unix milliseconds) at most once a minute per token: a request
/// only touches memory, never the disk.
///
/// A use is due to be stored when it is newer than the one stored and the token's last
/// store is at least `storeInterval` old. Uses flush themselves: an authentication that
/// finds anything due starts a flush on a queue of its own (it answers without waiting),
/// and a login flushes before it picks the token to revoke, so the least recently used
/// one is chosen on what this instance knows. One serial queue runs every flush, so no
/// use is written twice. A flush that fails leaves its uses due, for the next one. On a
/// store shared by several instances, each stores its own uses: a use on another
/// instance reaches the column within a minute or so of its next flush.
///
/// Memory stays bounded by the tokens used lately: an entry is dropped once its last use
/// is stored and `storeInterval` has passed since.
final class TokenUseLog: Sendable {
    /// The least time between two stores of one token's last use.
    static let storeInterval: Int64 = 60_000

    private struct Entry {
        /// Milliseconds of the last use.
        var lastUse: Int64
        /// The last use stored, and when it was stored; nil before this process stored one.
        var stored: Int64?
        var storedAt: Int64?

        /// Whether the last use is not stored yet.
        var isPending: Bool { stored.map { lastUse > $0 } ?? true }

        /// When a pending use may be stored: at once if this process never stored one.
        func dueAt(now: Int64) -> Int64 {
            storedAt.map { $0 + TokenUseLog.storeInterval } ?? now
        }

        func isDue(now: Int64) -> Bool {
            isPending && dueAt(now: now) <= now
        }
    }

    private struct State {
        var entries: [[UInt8]: Entry] = [:]
        /// The earliest time an entry becomes due, nil when none is waiting: checked by
        /// every use in O(1).
        var nextDue: Int64?
        /// Rows written since the start, for the tests of the once-a-minute rule.
        var storedUses = 0
    }

    private let store: any UserDataStore
    private let state = Mutex(State())
    private let flushes = DispatchQueue(label: "token-uses", qos: .utility)

    init(store: any UserDataStore) {
        self.store = store
    }

    /// Notes a use of the token with SHA-256 `digest` at `now` (milliseconds); starts a
    /// flush when anything is due.
    func recordUse(digest: [UInt8], now: Int64) {
        let due = state.withLock { state in
            var entry = state.entries[digest] ?? Entry(lastUse: now)
            entry.lastUse = max(entry.lastUse, now)
            state.entries[digest] = entry
            if entry.isPending {
                let dueAt = entry.dueAt(now: now)
                state.nextDue = min(state.nextDue ?? dueAt, dueAt)
            }
            return state.nextDue.map { $0 <= now } ?? false
        }
        guard due else { return }
        flushes.async { [self] in
            do {
                try storeDue(now: now)
            } catch {
                // Nothing is lost: the uses stay due, and the next flush stores them.
            }
        }
    }

    /// Stores every use due at `now` (milliseconds), after the flushes already started.
    func flush(now: Int64) throws {
        try flushes.sync { try storeDue(now: now) }
    }

    /// Waits for the flushes already started; for tests.
    func waitForFlushes() {
        flushes.sync {}
    }

    var storedUses: Int {
        state.withLock { $0.storedUses }
    }

    /// Runs on `flushes` only.
    private func storeDue(now: Int64) throws {
        let due = state.withLock { state in
            state.entries.filter { $0.value.isDue(now: now) }.map { (digest: $0.key, lastUse: $0.value.lastUse) }
        }
        if !due.isEmpty {
            try store.groupWrite { connection in
                for use in due {
                    try connection.execute(
                        "UPDATE tokens SET last_used_at = ? WHERE token_hash = ? AND last_used_at < ?",
                        [.integer(use.lastUse), .blob(use.digest), .integer(use.lastUse)])
                }
            }
        }
        state.withLock { state in
            for use in due {
                state.entries[use.digest]?.stored = use.lastUse
                state.entries[use.digest]?.storedAt = now
            }
            state.storedUses += due.count
            state.entries = state.entries.filter { _, entry in entry.isPending || entry.dueAt(now: now) > now }
            state.nextDue = state.entries.values.filter(\.isPending).map { $0.dueAt(now: now) }.min()
        }
    }
}
