/// One series of a histogram family: its labels' values (without `le`), in the order of
/// the family's label names, and its counts.
public struct HistogramSeries: Sendable {
    public var labelValues: [String]
    public var snapshot: HistogramSnapshot

    public init(_ labelValues: [String], _ snapshot: HistogramSnapshot) {
        self.labelValues = labelValues
        self.snapshot = snapshot
    }
}
