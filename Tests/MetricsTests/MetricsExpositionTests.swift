import Metrics
import TestSupportCore
import Testing

/// The text format as `MetricsExposition` writes it, read back line by line by a strict
/// reader written from the format's specification (`PrometheusText`).
struct MetricsExpositionTests {
    @Test func labelValuesAndHelpAreEscapedAndReadBackAsWritten() throws {
        var exposition = MetricsExposition()
        let awkward = ["/photos/{photoID}", #"a "quoted" \ backslash"#, "two\nlines", "", "café ☕"]
        exposition.counter(
            "test_requests_total", help: #"Help with a \ backslash"# + "\nand a second line.", labelNames: ["route", "status"],
            samples: awkward.enumerated().map { MetricSample([$0.element, "200"], MetricValue($0.offset + 1)) })
        let text = String(decoding: exposition.bytes, as: UTF8.self)
        #expect(text.contains(#"route="a \"quoted\" \\ backslash""#))
        #expect(text.contains(#"route="two\nlines""#))
        #expect(text.hasPrefix(#"# HELP test_requests_total Help with a \\ backslash\nand a second line."# + "\n# TYPE test_requests_total counter\n"))
        let parsed = try PrometheusText(text)
        let family = try #require(parsed.family("test_requests_total"))
        #expect(family.type == "counter")
        #expect(family.help == #"Help with a \ backslash"# + "\nand a second line.")
        #expect(family.samples.map { $0.labels["route"] } == awkward)
        #expect(family.samples.map(\.value) == [1, 2, 3, 4, 5])
    }

    @Test func histogramBucketsAreCumulativeEndingWithInfinityAndTheSumIsExact() throws {
        let buckets = HistogramBuckets.durations(nanoseconds: [25_000, 1_000_000, 1_500_000_000])
        var exposition = MetricsExposition()
        exposition.histogram(
            "test_duration_seconds", help: "Durations.", buckets: buckets, labelNames: ["route"],
            series: [
                HistogramSeries(["/nearby"], HistogramSnapshot(counts: [3, 0, 2, 1], sum: 3_000_012_345)),
                HistogramSeries(["/healthz"], HistogramSnapshot(counts: [0, 0, 0, 0], sum: 0)),
            ])
        let text = String(decoding: exposition.bytes, as: UTF8.self)
        #expect(
            text == """
                # HELP test_duration_seconds Durations.
                # TYPE test_duration_seconds histogram
                test_duration_seconds_bucket{route="/nearby",le="0.000025"} 3
                test_duration_seconds_bucket{route="/nearby",le="0.001"} 3
                test_duration_seconds_bucket{route="/nearby",le="1.5"} 5
                test_duration_seconds_bucket{route="/nearby",le="+Inf"} 6
                test_duration_seconds_sum{route="/nearby"} 3.000012345
                test_duration_seconds_count{route="/nearby"} 6
                test_duration_seconds_bucket{route="/healthz",le="0.000025"} 0
                test_duration_seconds_bucket{route="/healthz",le="0.001"} 0
                test_duration_seconds_bucket{route="/healthz",le="1.5"} 0
                test_duration_seconds_bucket{route="/healthz",le="+Inf"} 0
                test_duration_seconds_sum{route="/healthz"} 0
                test_duration_seconds_count{route="/healthz"} 0

                """)
        let parsed = try PrometheusText(text)
        #expect(parsed.value("test_duration_seconds_bucket", ["route": "/nearby", "le": "+Inf"]) == 6)
        #expect(parsed.value("test_duration_seconds_sum", ["route": "/nearby"]) == 3.000012345)
    }

    @Test func theReaderRefusesWhatTheFormatForbids() {
        let broken = [
            "# TYPE x counter\nx_total 1\n",  // no HELP
            "# HELP x_total h\n# TYPE x_total counter\nx_total 1",  // no final line feed
            "# HELP x h\n# TYPE x counter\nx 1\n",  // a counter without _total
            "# HELP x h\n# TYPE x gauge\nx{a=\"b\\q\"} 1\n",  // an unknown escape
            "# HELP x h\n# TYPE x gauge\nx{__a=\"b\"} 1\n",  // a reserved label name
            "# HELP x h\n# TYPE x gauge\nx one\n",  // not a number
            "# HELP x h\n# TYPE x gauge\ny 1\n",  // a sample of another family
            "# HELP x h\n# TYPE x gauge\n# HELP y h\n# TYPE y gauge\n# HELP x h\n# TYPE x gauge\n",  // a family twice
            "# HELP h h\n# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\nh_sum 1\nh_count 1\n",  // not cumulative
            "# HELP h h\n# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_sum 1\nh_count 1\n",  // no +Inf
            "# HELP h h\n# TYPE h histogram\nh_bucket{le=\"+Inf\"} 2\nh_sum 1\nh_count 1\n",  // +Inf is not _count
        ]
        for text in broken {
            #expect(throws: PrometheusText.Invalid.self, "\(text)") { try PrometheusText(text) }
        }
    }

    @Test(arguments: [
        (UInt64(0), UInt64(1_000_000_000), "0"), (1_000_000_000, 1_000_000_000, "1"), (1_500_000, 1_000_000_000, "0.0015"),
        (25_000, 1_000_000_000, "0.000025"), (60_000_000_001, 1_000_000_000, "60.000000001"), (7, 1, "7"), (12_345, 100, "123.45"),
    ])
    func decimalValuesAreExact(units: UInt64, per: UInt64, text: String) {
        #expect(MetricValue(units, per: per).text == text)
    }

    @Test func floatValuesUseTheFormatsSpellings() {
        #expect(MetricValue(Double.nan).text == "NaN")
        #expect(MetricValue(Double.infinity).text == "+Inf")
        #expect(MetricValue(-Double.infinity).text == "-Inf")
        #expect(MetricValue(0.5).text == "0.5")
        #expect(Double(MetricValue(1e-5).text) == 1e-5)
    }

    @Test func aValueOnABoundIsInThatBucket() {
        let buckets = HistogramBuckets(bounds: [1, 2, 4, 8])
        #expect([0, 1, 2, 3, 4, 5, 8, 9, .max].map(buckets.index(of:)) == [0, 0, 1, 2, 2, 3, 3, 4, 4])
    }

    /// Random families of random labels and values, written and read back: every sample
    /// comes back with its labels and value, whatever bytes its label values hold.
    @Test func randomFamiliesReadBackAsWritten() throws {
        var random = SeededGenerator(seed: 47)
        let alphabet = Array(#"ab/{}"\ né☕_-="#) + ["\n"]
        for round in 0..<200 {
            var exposition = MetricsExposition()
            var expected: [(name: String, labels: [String: String], value: Double)] = []
            for family in 0..<Int.random(in: 1...4, using: &random) {
                let labelNames = Array(["route", "method", "status", "rule"].shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random)))
                let name = "test_\(round)_\(family)"
                if Bool.random(using: &random) {
                    let buckets = HistogramBuckets(bounds: [1, 10, 100])
                    var series: [HistogramSeries] = []
                    for _ in 0..<Int.random(in: 0...3, using: &random) {
                        let values = labelNames.map { _ in String((0..<Int.random(in: 0...6, using: &random)).map { _ in alphabet.randomElement(using: &random)! }) }
                        guard !series.contains(where: { $0.labelValues == values }) else { continue }
                        let counts = (0..<4).map { _ in UInt64.random(in: 0...50, using: &random) }
                        series.append(HistogramSeries(values, HistogramSnapshot(counts: counts, sum: UInt64.random(in: 0...10_000, using: &random))))
                        let labels = Dictionary(uniqueKeysWithValues: zip(labelNames, values))
                        expected.append((name + "_count", labels, Double(counts.reduce(0, +))))
                        expected.append((name + "_bucket", labels.merging(["le": "10"]) { $1 }, Double(counts[0] + counts[1])))
                    }
                    exposition.histogram(name, help: "h", buckets: buckets, labelNames: labelNames, series: series)
                } else {
                    var samples: [MetricSample] = []
                    for _ in 0..<Int.random(in: 0...5, using: &random) {
                        let values = labelNames.map { _ in String((0..<Int.random(in: 0...6, using: &random)).map { _ in alphabet.randomElement(using: &random)! }) }
                        guard !samples.contains(where: { $0.labelValues == values }) else { continue }
                        let value = UInt64.random(in: 0...1_000_000, using: &random)
                        samples.append(MetricSample(values, MetricValue(value)))
                        expected.append((name + "_total", Dictionary(uniqueKeysWithValues: zip(labelNames, values)), Double(value)))
                    }
                    exposition.counter(name + "_total", help: "c\\\n", labelNames: labelNames, samples: samples)
                }
            }
            let parsed = try PrometheusText(String(decoding: exposition.bytes, as: UTF8.self))
            for sample in expected {
                let found = parsed.families.flatMap(\.samples).filter { $0.name == sample.name && $0.labels == sample.labels }
                #expect(found.map(\.value) == [sample.value], "round \(round): \(sample)")
            }
        }
    }

    @Test func collectorsWriteInTheOrderRegistered() throws {
        let registry = MetricsRegistry()
        registry.register { $0.gauge("test_second", help: "2", value: MetricValue(2)) }
        registry.register(ProcessMetrics())
        registry.register { $0.gauge("test_last", help: "3", value: MetricValue(3)) }
        let parsed = try PrometheusText(String(decoding: registry.exposition(), as: UTF8.self))
        #expect(parsed.families.first?.name == "test_second")
        #expect(parsed.families.last?.name == "test_last")
    }
}
