import Accounts
import HTTPServer
import Images
import Logging
import Metrics
import UserData

/// What `GET /metrics` on the `--metrics-listen` listener tells: every family a
/// Prometheus scrapes, each read at the scrape from what its module keeps (per-loop
/// counters, atomics), never from a store. The operator's listener, never the public
/// port: the public router has no `/metrics` route, so it answers 404 there.
extension Application {
    /// What a listener with a scrape every few seconds needs: one event loop, a few
    /// connections (a Prometheus keeps one open), two threads to write a scrape's text.
    static let metricsListenerLoops = 1
    static let metricsListenerConnections = 64
    static let metricsListenerThreads = 2

    static func metricsRegistry(
        server: HTTPServer, refusals: Refusals, syncWaitRoom: SyncWaitRoom, hasher: PasswordHasher,
        commits: CommitMetrics, images: ImageCacheCounters, generations: CatalogGenerations
    ) -> MetricsRegistry {
        refusals.declare(RefusalRule.httpServerRules + RefusalRule.apiRules)
        let registry = MetricsRegistry()
        registry.register(server)
        registry.register(refusals)
        registry.register { exposition in
            exposition.gauge(
                "past_nyc_sync_waits_held", help: "GET /sync?wait= requests held now, waiting for a change.",
                value: MetricValue(syncWaitRoom.heldCount))
            exposition.gauge(
                "past_nyc_password_hashes_queued",
                help: """
                    Password hashes admitted now, running or waiting for the hasher (at most \
                    \(hasher.concurrentHashes) run and \(hasher.queuedHashes) wait; one more is refused: \
                    past_nyc_refusals_total{rule="hasher-full"}).
                    """,
                value: MetricValue(hasher.hashesInFlight))
            exposition.histogram(
                "past_nyc_group_commit_size", help: "Writes per commit of the user data (SQLite's group commit; 1 on PostgreSQL).",
                buckets: CommitMetrics.sizeBuckets, snapshot: commits.sizes.snapshot)
            exposition.histogram(
                "past_nyc_group_commit_duration_seconds",
                help: "Time of each commit of the user data, from BEGIN to a durable COMMIT (its fsync).",
                buckets: CommitMetrics.durationBuckets, snapshot: commits.durations.snapshot)
            exposition.counter(
                "past_nyc_image_cache_hits_total", help: "Photograph requests answered from the disk copy.",
                value: MetricValue(images.hits))
            exposition.counter(
                "past_nyc_image_cache_misses_total", help: "Photograph requests for an image the disk copy did not hold.",
                value: MetricValue(images.misses))
            exposition.gauge(
                "past_nyc_image_cache_bytes", help: "Bytes of the images the disk copy keeps.", value: MetricValue(images.keptBytes))
            exposition.gauge(
                "past_nyc_image_cache_images", help: "Images the disk copy keeps.", value: MetricValue(images.keptImages))
            exposition.counter(
                "past_nyc_image_source_failures_total",
                help: "Fetches from a photograph's source that failed, by the status answered: 502 (refused, unreachable, "
                    + "not a JPEG, too large) or 504 (no whole answer in time).",
                labelNames: ["status"],
                samples: [
                    MetricSample(["502"], MetricValue(images.badGatewayFailures)),
                    MetricSample(["504"], MetricValue(images.gatewayTimeoutFailures)),
                ])
            exposition.gauge(
                "past_nyc_catalog_generation",
                help: "The catalog generation served: the sequence of the last accepted correction it holds, 0 for the shipped one.",
                value: MetricValue(generations.number))
        }
        registry.register(ProcessMetrics())
        return registry
    }

    /// The second listener: `GET /metrics` and nothing else, on `configuration`'s host and port.
    static func metricsServer(configuration: HTTPServerConfiguration, registry: MetricsRegistry, logger: Logger) -> HTTPServer {
        var router = Router()
        let headers = HTTPHeaders([("Content-Type", MetricsRegistry.contentType)])
        router.add(.get, "/metrics", caching: .noStore, .blocking { _ in
            HTTPResponse(status: .ok, headers: headers, body: registry.exposition())
        })
        var listening = configuration
        listening.eventLoopCount = metricsListenerLoops
        listening.maxConnections = metricsListenerConnections
        listening.workerThreads = metricsListenerThreads
        // Its log lines, "listening" first (scripts read its port there), say which listener speaks.
        var logger = logger
        logger[metadataKey: "listener"] = "metrics"
        return HTTPServer(configuration: listening, router: router, logger: logger)
    }
}
