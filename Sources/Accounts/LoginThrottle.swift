import Crypto
import Foundation

/// The in-memory `LoginThrottling`, for the store of one instance (SQLite): a restart
/// forgets every count.
///
/// Per pair, not per username, so one attacker cannot lock every account out; per
/// address too, so one address cannot try a few passwords on every username. The
/// hashing limits of `PasswordHasher` bound the overall guessing rate. Memory stays
/// bounded (`SlidingWindowCounter`), and usernames are kept as fixed-size digests
/// however long the submitted name.
public final class LoginThrottle: LoginThrottling {
    public struct Key: Hashable, Sendable {
        let usernameDigest: SHA256.Digest
        let clientAddress: String

        init(usernameKey: String, clientAddress: String) {
            usernameDigest = SHA256.hash(data: Array(usernameKey.utf8))
            self.clientAddress = clientAddress
        }
    }

    /// Failures of one username from one address that get the pair refused.
    static let failuresPerUsername = 5
    /// How long a failure counts.
    static let window: TimeInterval = 15 * 60

    private let pairs = SlidingWindowCounter<Key>(SlidingWindow(limit: failuresPerUsername, window: window))
    /// Nil when the per-address limit is lifted.
    private let clients: SlidingWindowCounter<String>?

    /// - Parameter failuresPerClient: failures from one address, whatever the
    ///   usernames, that get every login from it refused; 0 lifts that limit.
    init(failuresPerClient: Int) {
        clients = failuresPerClient > 0
            ? SlidingWindowCounter(SlidingWindow(limit: failuresPerClient, window: Self.window)) : nil
    }

    public func refusal(_ key: Key, now: Date) -> AccountsError? {
        Self.refusal(
            pairRetryAfter: pairs.retryAfter(key, now: now),
            clientRetryAfter: clients?.retryAfter(key.clientAddress, now: now))
    }

    public func recordFailure(_ key: Key, now: Date) {
        pairs.record(key, now: now)
        clients?.record(key.clientAddress, now: now)
    }

    public func recordSuccess(_ key: Key) {
        pairs.clear(key)
    }
}
