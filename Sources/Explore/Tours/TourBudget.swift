/// What a walking tour may spend: a number of minutes and of stops. Walking goes at
/// 1.25 m/s (75 metres a minute) along great-circle legs and each stop takes 3
/// minutes, so a tour of `k` stops over `d` metres takes `d / 75 + 3k` minutes.
public struct TourBudget: Sendable, Hashable {
    /// 1.25 m/s.
    public static let metersPerMinute = 75.0
    public static let minutesPerStop = 3

    public let minutes: Int
    public let maxStops: Int

    public init(minutes: Int, maxStops: Int) {
        self.minutes = minutes
        self.maxStops = maxStops
    }

    /// The minutes of a walk of `meters` with `stops` stops.
    public static func minutes(walking meters: Double, stops: Int) -> Double {
        meters / metersPerMinute + Double(minutesPerStop * stops)
    }

    /// Whether `stops` stops with `meters` of walking fit the budget. Every check of
    /// every planner goes through here, so they all agree to the last bit.
    public func fits(meters: Double, stops: Int) -> Bool {
        stops <= maxStops && Self.minutes(walking: meters, stops: stops) <= Double(minutes)
    }

    /// The walking distance of `minutes − 3`: no site farther from the start than this
    /// can be in a tour (the first leg alone would not fit), whatever the order.
    public var reachMeters: Double {
        Double(minutes - Self.minutesPerStop) * Self.metersPerMinute
    }
}
