import Crypto
import Foundation
import Synchronization

/// The in-memory `LoginThrottling`, for the store of one instance: counts failed
/// logins per (username, client address) pair: after `maxFailures` within `window`,
/// that pair is refused until its oldest failure leaves the window. A success resets
/// the pair.
///
/// Per pair, not per username, so one attacker cannot lock every account out; the
/// hashing limit of `PasswordHasher` bounds the overall guessing rate. Kept in
/// memory only: a restart forgets every count. Memory stays small: each failure
/// costs a password hash (a few per second at most), pairs whose failures left
/// the window are pruned, and usernames are kept as fixed-size digests however
/// long the submitted name.
public final class LoginThrottle: LoginThrottling {
    public struct Key: Hashable, Sendable {
        let usernameDigest: SHA256.Digest
        let clientAddress: String

        init(usernameKey: String, clientAddress: String) {
            usernameDigest = SHA256.hash(data: Array(usernameKey.utf8))
            self.clientAddress = clientAddress
        }
    }

    let maxFailures: Int
    let window: TimeInterval
    /// Above this many pairs, pairs with no failure inside the window are dropped.
    private let pruneThreshold: Int

    /// Failure times per pair, oldest first, at most `maxFailures` each.
    private let failures = Mutex<[Key: [Date]]>([:])

    init(maxFailures: Int = 5, window: TimeInterval = 15 * 60, pruneThreshold: Int = 10_000) {
        self.maxFailures = maxFailures
        self.window = window
        self.pruneThreshold = pruneThreshold
    }

    /// Seconds until `key` may try again, or nil when it may try now.
    public func retryAfter(_ key: Key, now: Date) -> Int? {
        failures.withLock { table in
            guard let times = table[key] else { return nil }
            let recent = times.filter { now.timeIntervalSince($0) < window }
            guard recent.count >= maxFailures, let oldest = recent.first else { return nil }
            return max(1, Int((oldest.addingTimeInterval(window).timeIntervalSince(now)).rounded(.up)))
        }
    }

    public func recordFailure(_ key: Key, now: Date) {
        failures.withLock { table in
            if table.count >= pruneThreshold {
                table = table.filter { _, times in times.contains { now.timeIntervalSince($0) < window } }
            }
            var times = table[key, default: []].filter { now.timeIntervalSince($0) < window }
            times.append(now)
            table[key] = Array(times.suffix(maxFailures))
        }
    }

    public func recordSuccess(_ key: Key) {
        _ = failures.withLock { $0.removeValue(forKey: key) }
    }
}
