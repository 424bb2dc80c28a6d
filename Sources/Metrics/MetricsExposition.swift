/// The text exposition format 0.0.4 of Prometheus
/// (https://prometheus.io/docs/instrumenting/exposition_formats/#text-based-format),
/// written family by family: each family's `# HELP` and `# TYPE` lines, then all its
/// samples together, each line ending in a line feed.
///
/// What it checks, as programming errors (a precondition: a test that scrapes the
/// application finds them): names as the data model allows (`[a-zA-Z_:][a-zA-Z0-9_:]*`,
/// label names `[a-zA-Z_][a-zA-Z0-9_]*` and never `__…`, https://prometheus.io/docs/concepts/data_model/),
/// a counter's name ending in `_total`, each family written once, as many label values
/// as label names, no label named `le` beside a histogram's own. What it escapes: in
/// `# HELP`, backslash and line feed; in a label value, backslash, double quote and line
/// feed. A histogram's buckets are written cumulative, ending with `le="+Inf"`, whose
/// count is `_count`'s.
public struct MetricsExposition {
    public private(set) var bytes: [UInt8] = []
    private var names: Set<String> = []

    public init() {}

    /// A counter family (its name ends in `_total`).
    public mutating func counter(_ name: String, help: String, labelNames: [String] = [], samples: [MetricSample]) {
        precondition(name.hasSuffix("_total"), "a counter's name ends in _total: \(name)")
        family(name, .counter, help: help, labelNames: labelNames, samples: samples)
    }

    /// A counter family of one sample without labels.
    public mutating func counter(_ name: String, help: String, value: MetricValue) {
        counter(name, help: help, samples: [MetricSample([], value)])
    }

    public mutating func gauge(_ name: String, help: String, labelNames: [String] = [], samples: [MetricSample]) {
        family(name, .gauge, help: help, labelNames: labelNames, samples: samples)
    }

    /// A gauge family of one sample without labels.
    public mutating func gauge(_ name: String, help: String, value: MetricValue) {
        gauge(name, help: help, samples: [MetricSample([], value)])
    }

    /// A histogram family: for each series, `name_bucket` per bucket (cumulative),
    /// `name_sum` (in the exposition's unit) and `name_count`.
    public mutating func histogram(
        _ name: String, help: String, buckets: HistogramBuckets, labelNames: [String] = [], series: [HistogramSeries]
    ) {
        precondition(!labelNames.contains("le"), "le is the histogram's own label: \(name)")
        begin(name, .histogram, help: help, labelNames: labelNames)
        let bucketLabels = buckets.labels
        for one in series {
            precondition(one.snapshot.counts.count == buckets.count, "\(name): a snapshot of other buckets")
            precondition(one.labelValues.count == labelNames.count, "\(name): \(labelNames.count) label values wanted")
            var cumulative: UInt64 = 0
            for (index, count) in one.snapshot.counts.enumerated() {
                cumulative &+= count
                sample(
                    name + "_bucket", labelNames: labelNames + ["le"], labelValues: one.labelValues + [bucketLabels[index]],
                    value: MetricValue(cumulative))
            }
            sample(
                name + "_sum", labelNames: labelNames, labelValues: one.labelValues,
                value: MetricValue(one.snapshot.sum, per: buckets.unitsPerWhole))
            sample(name + "_count", labelNames: labelNames, labelValues: one.labelValues, value: MetricValue(cumulative))
        }
    }

    /// A histogram family of one series without labels.
    public mutating func histogram(_ name: String, help: String, buckets: HistogramBuckets, snapshot: HistogramSnapshot) {
        histogram(name, help: help, buckets: buckets, series: [HistogramSeries([], snapshot)])
    }

    private mutating func family(
        _ name: String, _ type: MetricType, help: String, labelNames: [String], samples: [MetricSample]
    ) {
        begin(name, type, help: help, labelNames: labelNames)
        for one in samples {
            precondition(one.labelValues.count == labelNames.count, "\(name): \(labelNames.count) label values wanted")
            sample(name, labelNames: labelNames, labelValues: one.labelValues, value: one.value)
        }
    }

    /// The `# HELP` and `# TYPE` lines of a family not written before.
    private mutating func begin(_ name: String, _ type: MetricType, help: String, labelNames: [String]) {
        precondition(Self.isMetricName(name), "not a metric name: \(name)")
        precondition(labelNames.allSatisfy(Self.isLabelName), "not label names: \(labelNames)")
        precondition(Set(labelNames).count == labelNames.count, "\(name): a label name twice")
        precondition(names.insert(name).inserted, "the family \(name) is written twice")
        bytes.append(contentsOf: "# HELP \(name) ".utf8)
        for byte in help.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
            case UInt8(ascii: "\n"): bytes.append(contentsOf: #"\n"#.utf8)
            default: bytes.append(byte)
            }
        }
        bytes.append(contentsOf: "\n# TYPE \(name) \(type.rawValue)\n".utf8)
    }

    private mutating func sample(_ name: String, labelNames: [String], labelValues: [String], value: MetricValue) {
        bytes.append(contentsOf: name.utf8)
        if !labelNames.isEmpty {
            bytes.append(UInt8(ascii: "{"))
            for (index, (label, value)) in zip(labelNames, labelValues).enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes.append(contentsOf: label.utf8)
                bytes.append(contentsOf: #"=""#.utf8)
                for byte in value.utf8 {
                    switch byte {
                    case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
                    case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
                    case UInt8(ascii: "\n"): bytes.append(contentsOf: #"\n"#.utf8)
                    default: bytes.append(byte)
                    }
                }
                bytes.append(UInt8(ascii: "\""))
            }
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: value.text.utf8)
        bytes.append(UInt8(ascii: "\n"))
    }

    static func isMetricName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !isDigit(first) else { return false }
        return name.utf8.allSatisfy { isLetterOrUnderscore($0) || isDigit($0) || $0 == UInt8(ascii: ":") }
    }

    static func isLabelName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !isDigit(first), !name.hasPrefix("__") else { return false }
        return name.utf8.allSatisfy { isLetterOrUnderscore($0) || isDigit($0) }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func isLetterOrUnderscore(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || byte == UInt8(ascii: "_")
    }
}
