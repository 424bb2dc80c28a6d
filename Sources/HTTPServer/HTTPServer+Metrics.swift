import Metrics

/// The HTTP server's families, read from its event loops when scraped: each loop counts
/// the requests it answers in its own `RequestMetrics` (when the configuration
/// `recordsMetrics`), and a scrape adds the loops up.
extension HTTPServer: MetricsCollector {
    public func collect(into exposition: inout MetricsExposition) {
        let loops = runningLoops
        let perLoop = loops.compactMap(\.requestMetrics)
        let routes = routeLabels
        var requests: [MetricSample] = []
        var durations: [HistogramSeries] = []
        var loopTotals = [UInt64](repeating: 0, count: perLoop.count)
        for route in routes.indices {
            for method in MethodLabels.labels.indices {
                var counts = [UInt64](repeating: 0, count: StatusColumns.count)
                for (loop, metrics) in perLoop.enumerated() {
                    guard let row = metrics.counts(route: route, method: method) else { continue }
                    for column in row.indices { counts[column] &+= row[column] }
                    loopTotals[loop] &+= row.reduce(0, &+)
                }
                for (column, count) in counts.enumerated() where count > 0 {
                    requests.append(
                        MetricSample([routes[route], MethodLabels.labels[method], StatusColumns.labels[column]], MetricValue(count)))
                }
            }
            var snapshot = HistogramSnapshot(bucketCount: RequestMetrics.durationBuckets.count)
            for metrics in perLoop { snapshot.add(metrics.durations(route: route)) }
            if snapshot.count > 0 { durations.append(HistogramSeries([routes[route]], snapshot)) }
        }
        exposition.counter(
            "past_nyc_http_requests_total",
            help: """
                Requests answered, by route (the pattern the router matched, e.g. /photos/{photoID}; unmatched: a path \
                no route binds; unread: a request whose head could not be read), method and status code.
                """,
            labelNames: ["route", "method", "status"], samples: requests)
        exposition.histogram(
            "past_nyc_http_request_duration_seconds",
            help: "Time from a request's parsed head to its encoded response, by route (as past_nyc_http_requests_total).",
            buckets: RequestMetrics.durationBuckets, labelNames: ["route"], series: durations)
        exposition.counter(
            "past_nyc_event_loop_requests_total",
            help: "Requests answered by each event loop (one per usable CPU): how evenly the loops share the load.",
            labelNames: ["loop"],
            samples: loopTotals.enumerated().map { MetricSample([String($0.offset)], MetricValue($0.element)) })
        let context = loops.first?.context
        exposition.gauge(
            "past_nyc_connections_open", help: "Client connections open now.",
            value: MetricValue(context?.openConnections.load(ordering: .relaxed) ?? 0))
        exposition.gauge(
            "past_nyc_http_worker_jobs",
            help: "Requests whose handler runs or waits on the worker pool now (user data, password checks).",
            value: MetricValue(context?.workers.jobsInFlight ?? 0))
        exposition.gauge(
            "past_nyc_http_worker_threads", help: "Threads of the worker pool.",
            value: MetricValue(context?.workers.threadCount ?? 0))
    }
}
