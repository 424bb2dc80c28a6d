/// The `# TYPE` of a family (the text format 0.0.4 knows these, `summary` and `untyped`;
/// this server writes no summaries: histograms add up across instances, summaries do not).
public enum MetricType: String, Sendable {
    /// Only rises, from 0 at the process's start; a name ending in `_total`.
    case counter
    /// Any value at the moment of the scrape.
    case gauge
    /// Observations counted into cumulative buckets, with `_sum` and `_count`.
    case histogram
}
