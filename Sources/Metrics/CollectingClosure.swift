/// A `MetricsCollector` made of a closure: for the gauges the application reads from
/// what it owns (`MetricsRegistry.register(_:)` with a closure).
struct CollectingClosure: MetricsCollector {
    let body: @Sendable (inout MetricsExposition) -> Void

    func collect(into exposition: inout MetricsExposition) {
        body(&exposition)
    }
}
