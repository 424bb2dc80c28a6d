import Foundation

/// A fair-use rule of the form "at most `limit` events within `window`": the failed
/// logins and the registrations of a client address. A key that reached the limit is
/// refused until enough of its events have left the window for one more to fit.
struct SlidingWindow: Sendable {
    let limit: Int
    let window: TimeInterval

    /// Where the window begins at `now`: events at or before it no longer count.
    func start(now: TimeInterval) -> TimeInterval {
        now - window
    }

    /// Whole seconds (at least 1) until one more event fits, given the times of the key's
    /// events (any order, any age: those outside the window are ignored); nil when one
    /// fits now. With `limit` or more inside the window, one fits again once all but
    /// `limit - 1` of them have left it: exact, so `Retry-After` never sends a client back
    /// too early or keeps it waiting longer than needed.
    func retryAfter(_ times: [TimeInterval], now: TimeInterval) -> Int? {
        let counted = times.filter { $0 > start(now: now) }.sorted()
        guard counted.count >= limit else { return nil }
        let freeing = counted[counted.count - limit]
        return max(1, Int((freeing + window - now).rounded(.up)))
    }
}
