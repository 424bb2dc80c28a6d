import Metrics

extension Refusals: MetricsCollector {
    public func collect(into exposition: inout MetricsExposition) {
        exposition.counter(
            "past_nyc_refusals_total",
            help: """
                Requests and connections refused by a fair-use rule (rule: its name, as the refused log line gives it), \
                login throttles and a full password hasher included.
                """,
            labelNames: ["rule"],
            samples: counts.sorted { $0.key.name < $1.key.name }.map { MetricSample([$0.key.name], MetricValue($0.value)) })
    }
}
