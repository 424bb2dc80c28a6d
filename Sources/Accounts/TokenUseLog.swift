import Dispatch
import Foundation
import Synchronization
import UserData

/// When each token was last used (authenticated with), kept in memory and stored in
/// `tokens.last_used_at` (Unix milliseconds) at most once a minute per token: a request
/// only touches memory, never the disk. Each store also moves the token's `expires_at`
/// to where its sliding expiry now lies (`Sessions.expiry`), so every check of a token,
/// on any instance, stays one comparison with the stored column.
///
/// A use is due to be stored when it is newer than the one stored and the token's last
/// store is at least `storeInterval` old. Uses flush themselves: an authentication that
/// finds anything due starts a flush on a queue of its own (it answers without waiting),
/// a timer starts one when the earliest pending use falls due (so no use waits in
/// memory much more than a minute, however quiet the server), and a login flushes
/// before it picks the token to revoke, so the least recently used one is chosen on
/// what this instance knows. One serial queue runs every flush, so no use is written
/// twice. A flush that fails leaves its uses due, for the next one. On a store shared
/// by several instances, each stores its own uses: a use on another instance reaches
/// the column within about a minute.
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
        /// When the armed timer fires (`clock` milliseconds), nil when none is armed.
        var timerAt: Int64?
    }

    private let store: any UserDataStore
    private let state = Mutex(State())
    private let flushes = DispatchQueue(label: "token-uses", qos: .utility)
    /// Unix milliseconds: what the timer's flush goes by.
    private let clock: @Sendable () -> Int64

    init(store: any UserDataStore, clock: @escaping @Sendable () -> Int64) {
        self.store = store
        self.clock = clock
    }

    /// Notes a use of the token with SHA-256 `digest` at `now` (milliseconds); starts a
    /// flush when anything is due.
    func recordUse(digest: [UInt8], now: Int64) {
        let (due, arm) = state.withLock { state in
            var entry = state.entries[digest] ?? Entry(lastUse: now)
            entry.lastUse = max(entry.lastUse, now)
            state.entries[digest] = entry
            if entry.isPending {
                let dueAt = entry.dueAt(now: now)
                state.nextDue = min(state.nextDue ?? dueAt, dueAt)
            }
            let due = state.nextDue.map { $0 <= now } ?? false
            return (due, due ? nil : Self.armTimer(&state))
        }
        if let arm { scheduleTimer(at: arm, now: now) }
        guard due else { return }
        flushes.async { [self] in
            do {
                try storeDue(now: now)
            } catch {
                // Nothing is lost: the uses stay due, and the next flush stores them.
            }
        }
    }

    /// The use of `digest` this process knows of, in milliseconds, stored or not; nil
    /// when it knows none (the stored column then says).
    func lastUse(digest: [UInt8]) -> Int64? {
        state.withLock { $0.entries[digest]?.lastUse }
    }

    /// When a timer must be armed for the earliest pending use (nil: none is needed, or
    /// one already fires by then), noted as armed.
    private static func armTimer(_ state: inout State) -> Int64? {
        guard let nextDue = state.nextDue, state.timerAt.map({ $0 > nextDue }) ?? true else { return nil }
        state.timerAt = nextDue
        return nextDue
    }

    /// Flushes at `at` (`clock` milliseconds), `now` being the clock's time. Holds the log
    /// weakly: a log that is gone needs no flush.
    private func scheduleTimer(at: Int64, now: Int64) {
        flushes.asyncAfter(deadline: .now() + .milliseconds(Int(clamping: max(at - now, 0)))) { [weak self] in
            guard let self else { return }
            state.withLock { state in
                if state.timerAt == at { state.timerAt = nil }
            }
            let now = clock()
            do {
                try storeDue(now: now)
            } catch {
                // Nothing is lost: the uses stay due, and the next flush stores them.
            }
            if let rearm = state.withLock({ Self.armTimer(&$0) }) { scheduleTimer(at: rearm, now: now) }
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
                        """
                        UPDATE tokens SET last_used_at = ?1,
                            expires_at = CASE WHEN created_at + ?2 < ?3 THEN created_at + ?2 ELSE ?3 END
                        WHERE token_hash = ?4 AND last_used_at < ?1
                        """,
                        [.integer(use.lastUse), .integer(Sessions.maximumLifetime),
                         .integer(use.lastUse / 1000 + Sessions.idleLifetime), .blob(use.digest)])
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
