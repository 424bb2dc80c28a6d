import Foundation

/// Counts the accounts created per client address over `RegistrationThrottle.window`:
/// after the limit, registrations from that address are refused until the oldest in
/// the window leaves it. `RegistrationThrottle` keeps the counts in memory;
/// `StoredRegistrationThrottle` in the shared store, so that every instance sees them.
protocol RegistrationThrottling: Sendable {
    /// Seconds until `clientAddress` may register again, nil when it may now.
    func retryAfter(clientAddress: String, now: Date) throws -> Int?
    /// Counts an account created from `clientAddress`.
    func record(clientAddress: String, now: Date) throws
}
