/// The waits between the attempts of one message: `first`, doubling after each
/// failure, at most `maximum`. A message is tried until the relay takes it or refuses
/// it for good: an outage delays mail, never drops it.
public struct RetrySchedule: Sendable, Equatable {
    public var firstMilliseconds: Int64
    public var maximumMilliseconds: Int64

    /// 10 s, 20 s, 40 s, … up to 15 minutes between attempts.
    public init(firstMilliseconds: Int64 = 10_000, maximumMilliseconds: Int64 = 15 * 60_000) {
        precondition(firstMilliseconds > 0 && maximumMilliseconds >= firstMilliseconds, "a wait, and a ceiling above it")
        self.firstMilliseconds = firstMilliseconds
        self.maximumMilliseconds = maximumMilliseconds
    }

    /// The wait after the `failures`-th failure in a row (1 for the first).
    public func delay(afterFailures failures: Int) -> Int64 {
        let doublings = min(max(failures - 1, 0), 40)
        let (doubled, overflow) = firstMilliseconds.multipliedReportingOverflow(by: Int64(1) << doublings)
        return overflow ? maximumMilliseconds : min(doubled, maximumMilliseconds)
    }
}
