import Foundation

/// Counts failed logins per (username, client address) pair: after `maxFailures`
/// within `window`, that pair is refused until its oldest failure leaves the window.
/// A success resets the pair. `LoginThrottle` keeps the counts in memory;
/// `StoredLoginThrottle` in the shared store, so that every instance sees them.
public protocol LoginThrottling: Sendable {
    /// Seconds until `key` may try again, or nil when it may try now.
    func retryAfter(_ key: LoginThrottle.Key, now: Date) throws -> Int?
    func recordFailure(_ key: LoginThrottle.Key, now: Date) throws
    func recordSuccess(_ key: LoginThrottle.Key) throws
}
