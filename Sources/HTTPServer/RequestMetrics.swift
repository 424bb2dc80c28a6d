import Metrics

/// One event loop's counts of the requests it answered, by route, method and status, and
/// their durations by route: written only by the loop's thread as it writes each
/// response, read by a scrape on another thread, which adds up the loops' counts
/// (`HTTPServer.collect(into:)`). No lock and no atomic read-modify-write on the way
/// (`SingleWriterCounters` says why): a request costs two table lookups and three
/// counter increments.
///
/// A request's route is its `RouteLabel`: rows are `route × method` (`MethodLabels`),
/// allocated when first used, columns the statuses (`StatusColumns`).
final class RequestMetrics: Sendable {
    /// Durations from the parsed head to the encoded response: catalog reads take tens of
    /// microseconds, writes wait for their group commit's fsync (milliseconds), a held
    /// `GET /sync?wait=` up to 30 s.
    static let durationBuckets = HistogramBuckets.durations(nanoseconds: [
        25_000, 50_000, 100_000, 250_000, 500_000,
        1_000_000, 2_500_000, 5_000_000, 10_000_000, 25_000_000, 50_000_000, 100_000_000, 250_000_000, 500_000_000,
        1_000_000_000, 2_500_000_000, 5_000_000_000, 10_000_000_000, 30_000_000_000, 60_000_000_000,
    ])

    /// The router's patterns, then `unmatched` and `unread`.
    let routeCount: Int
    private let patternCount: Int
    private let requests: SingleWriterCounterTable
    /// Per route: a counter per duration bucket, then the sum of its durations in nanoseconds.
    private let durations: SingleWriterCounters
    private let durationCells = RequestMetrics.durationBuckets.count + 1

    init(patternCount: Int) {
        self.patternCount = patternCount
        routeCount = patternCount + 2
        requests = SingleWriterCounterTable(rows: routeCount * MethodLabels.count, columns: StatusColumns.count)
        durations = SingleWriterCounters(count: routeCount * durationCells)
    }

    /// Counts one answered request; only on the loop's thread.
    @inline(__always)
    func record(route: RouteLabel, method: HTTPMethod, status: HTTPStatus, nanoseconds: UInt64) {
        let routeIndex = index(of: route)
        requests.increment(row: routeIndex * MethodLabels.count + MethodLabels.index(of: method), column: StatusColumns.column(of: status.code))
        let first = routeIndex * durationCells
        durations.add(1, at: first + Self.durationBuckets.index(of: nanoseconds))
        durations.add(nanoseconds, at: first + durationCells - 1)
    }

    /// The route's row of counts (one per `StatusColumns` column) for one method, nil when none was counted.
    func counts(route: Int, method: Int) -> [UInt64]? {
        requests.row(route * MethodLabels.count + method)
    }

    func durations(route: Int) -> HistogramSnapshot {
        let first = route * durationCells
        return HistogramSnapshot(
            counts: (0..<(durationCells - 1)).map { durations.value(at: first + $0) },
            sum: durations.value(at: first + durationCells - 1))
    }

    private func index(of route: RouteLabel) -> Int {
        switch route {
        case .pattern(let index): index
        case .unmatched: patternCount
        case .unread: patternCount + 1
        }
    }
}
