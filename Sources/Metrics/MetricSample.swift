/// One sample of a counter or gauge family: its labels' values, in the order of the
/// family's label names, and its value.
public struct MetricSample: Sendable {
    public var labelValues: [String]
    public var value: MetricValue

    public init(_ labelValues: [String], _ value: MetricValue) {
        self.labelValues = labelValues
        self.value = value
    }
}
