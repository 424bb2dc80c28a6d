import Logging
import Synchronization

/// Every fair-use refusal of the server, counted by rule and logged at most once per rule
/// per `logInterval`: a flood of refusals costs one log line per interval, which says how
/// many more were refused since the last line and the last client address refused.
///
/// Refusals are rare next to requests, so one lock guards the table; nothing on the path
/// of an accepted request touches it. One instance serves a whole process: the HTTP
/// server records the connection rules, the API the rest. Code that applies a rule and
/// has this instance at hand records the refusal there; a refusal decided where it is
/// not (the head parser, the body reader) rides on its `HTTPError` to the connection,
/// which records it as it writes the answer (`HTTPResponse.refusal`). The counts are
/// the family `past_nyc_refusals_total{rule}` (`Refusals+Metrics.swift`).
public final class Refusals: Sendable {
    private struct Entry {
        var total = 0
        /// Refused since the last log line of this rule.
        var unlogged = 0
        /// When the last line of this rule was written (monotonic nanoseconds), nil before the first.
        var loggedAt: UInt64?
    }

    private let logger: Logger
    private let logInterval: UInt64
    private let now: @Sendable () -> UInt64
    private let entries = Mutex<[RefusalRule: Entry]>([:])

    /// - Parameters:
    ///   - logInterval: the least time between two log lines of one rule.
    ///   - now: monotonic nanoseconds; tests pass their own clock, nil reads the system's.
    public init(logger: Logger, logInterval: Duration = .seconds(10), now: (@Sendable () -> UInt64)? = nil) {
        self.logger = logger
        self.logInterval = logInterval.nanoseconds
        self.now = now ?? { MonotonicClock.now() }
    }

    /// Counts one refusal of `rule`, and logs it unless this rule was logged within the interval.
    public func record(_ rule: RefusalRule, client: String) {
        let time = now()
        let line: Int? = entries.withLock { table in
            var entry = table[rule, default: Entry()]
            entry.total += 1
            entry.unlogged += 1
            defer { table[rule] = entry }
            if let loggedAt = entry.loggedAt, time &- loggedAt < logInterval { return nil }
            entry.loggedAt = time
            defer { entry.unlogged = 0 }
            return entry.unlogged
        }
        guard let line else { return }
        logger.warning(
            "refused",
            metadata: ["rule": .string(rule.name), "client": .string(client), "refused": .stringConvertible(line)])
    }

    /// Makes `rules` known before their first refusal, so that their counters are
    /// scraped as 0 from the start (a counter that appears at 1 hides its first increase
    /// from `rate()` and `increase()`).
    public func declare(_ rules: [RefusalRule]) {
        entries.withLock { table in
            for rule in rules where table[rule] == nil { table[rule] = Entry() }
        }
    }

    /// How many times each rule refused since the server started.
    public var counts: [RefusalRule: Int] {
        entries.withLock { table in table.mapValues(\.total) }
    }
}
