import Synchronization

/// Every collector of a process, in registration order, and the one text they write
/// when scraped: the body of `GET /metrics`.
public final class MetricsRegistry: Sendable {
    /// The media type of the text format 0.0.4, as Prometheus asks for it.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    private let collectors = Mutex<[any MetricsCollector]>([])

    public init() {}

    public func register(_ collector: any MetricsCollector) {
        collectors.withLock { $0.append(collector) }
    }

    /// Registers a closure that writes families when scraped (see `MetricsCollector`).
    public func register(_ collect: @escaping @Sendable (inout MetricsExposition) -> Void) {
        register(CollectingClosure(body: collect))
    }

    /// Every family of every collector, in the text format 0.0.4.
    public func exposition() -> [UInt8] {
        var exposition = MetricsExposition()
        for collector in collectors.withLock({ $0 }) { collector.collect(into: &exposition) }
        return exposition.bytes
    }
}
