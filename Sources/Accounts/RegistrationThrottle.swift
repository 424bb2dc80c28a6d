import Foundation

/// The in-memory `RegistrationThrottling`, for the store of one instance (SQLite).
/// In memory rather than in `accounts.sqlite`: one process sees every registration of
/// its store, and a count lost to a restart lets an address create at most one more
/// hour's worth, which needs no disk write per registration (nor a table to prune).
final class RegistrationThrottle: RegistrationThrottling {
    /// How long a registration counts.
    static let window: TimeInterval = 60 * 60

    private let counter: SlidingWindowCounter<String>

    /// - Parameter perHour: accounts one address may create within `window`; at least 1.
    init(perHour: Int) {
        counter = SlidingWindowCounter(SlidingWindow(limit: perHour, window: Self.window))
    }

    func retryAfter(clientAddress: String, now: Date) -> Int? {
        counter.retryAfter(clientAddress, now: now)
    }

    func record(clientAddress: String, now: Date) {
        counter.record(clientAddress, now: now)
    }
}
