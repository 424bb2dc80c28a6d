/// The upper bounds of a histogram's buckets, in the unit it observes (nanoseconds,
/// writes), and how many of that unit make one unit of the exposition (1,000,000,000
/// nanoseconds make the second Prometheus wants durations in): whole numbers, so that
/// the `le` labels and `_sum` are written exactly, with no float rounding on the way.
public struct HistogramBuckets: Sendable, Equatable {
    /// Ascending; a value belongs to the first bucket whose bound is at least the value
    /// (Prometheus's `le`: less than or equal), or to `+Inf`.
    public let bounds: [UInt64]
    /// A power of ten.
    public let unitsPerWhole: UInt64

    public init(bounds: [UInt64], unitsPerWhole: UInt64 = 1) {
        precondition(!bounds.isEmpty && zip(bounds, bounds.dropFirst()).allSatisfy { $0 < $1 }, "bounds must ascend")
        precondition(MetricValue.isPowerOfTen(unitsPerWhole), "unitsPerWhole must be a power of ten")
        self.bounds = bounds
        self.unitsPerWhole = unitsPerWhole
    }

    /// Durations, observed in nanoseconds and written in seconds.
    public static func durations(nanoseconds bounds: [UInt64]) -> HistogramBuckets {
        HistogramBuckets(bounds: bounds, unitsPerWhole: 1_000_000_000)
    }

    /// Buckets with `+Inf`.
    public var count: Int { bounds.count + 1 }

    /// The bucket `value` is counted in: a linear scan, as the values that matter most
    /// (the many fast requests) fall in the first few buckets.
    @inline(__always)
    public func index(of value: UInt64) -> Int {
        var index = 0
        while index < bounds.count, value > bounds[index] { index += 1 }
        return index
    }

    /// The `le` label of each bucket, `+Inf` last.
    public var labels: [String] {
        bounds.map { MetricValue($0, per: unitsPerWhole).text } + ["+Inf"]
    }
}
