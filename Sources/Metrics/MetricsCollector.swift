/// Something that writes metric families when `/metrics` is scraped: a module's state
/// read at that moment (counters it keeps, gauges it can tell). Registered once, by the
/// application (`Application+Metrics.swift` in `API`), in the order the families appear.
///
/// `collect` runs on a worker thread of the metrics listener, at every scrape: it must
/// only read what is already in memory (atomics, a lock held briefly, `/proc`), never
/// wait for a store or the network. Each family name is written by one collector only.
public protocol MetricsCollector: Sendable {
    func collect(into exposition: inout MetricsExposition)
}
