/// Everything tunable about the server: listen address, limits and timeouts.
public struct HTTPServerConfiguration: Sendable {
    /// An IPv4 address in dotted form.
    public var host = "0.0.0.0"
    /// 0 asks the kernel for an ephemeral port; read it back from `HTTPServer.port`.
    public var port = 8080
    /// Open connections at most. From 90 % of this on, a new connection makes room by
    /// closing the connection idle longest between requests; when none is idle, one more
    /// is answered `503` and closed at once, so the backlog drains.
    public var maxConnections = 4096
    /// Open connections of one client address (the TCP peer's, connections from a trusted
    /// proxy not counted) at most; one more is answered `429` and closed at once. 0: no limit.
    public var maxConnectionsPerClient = 256
    /// The proxies whose `X-Forwarded-For` names the client address (`HTTPRequest.remoteAddress`);
    /// none by default, and then the TCP peer is the client.
    public var trustedProxies = TrustedProxies()
    /// Threads that run `RouteHandler.blocking` handlers.
    public var workerThreads = 8
    /// Event loops; nil: one per CPU the process may run on (`HTTPServer.usableCPUCount()`).
    /// A listener with little to do (the metrics one) needs one.
    public var eventLoopCount: Int?
    /// Whether each event loop counts the requests it answers, by route, method and status,
    /// with their durations, for `HTTPServer.collect(into:)` (a scrape of the metrics);
    /// off, nothing is counted and those families have no samples.
    public var recordsMetrics = false
    /// Until a request's head (and body) is read, then 408 and close: from the accept for
    /// the first request (so a connection that never sends a byte is closed too, as
    /// nginx's `client_header_timeout` does), from its first byte for later ones.
    public var headReadTimeout: Duration = .seconds(10)
    /// A keep-alive connection with no request in progress is closed after this long.
    public var idleTimeout: Duration = .seconds(30)
    /// A response the client does not read is abandoned and the connection closed when,
    /// once a write has blocked, the client takes no byte for this long (nginx's
    /// `send_timeout`), or takes less than `minimumSendRate` allows after this grace.
    public var sendTimeout: Duration = .seconds(30)
    /// Bytes per second a client that does not keep up with a response must still read,
    /// counted from the moment a write blocked, after `sendTimeout` of grace; 0 turns the
    /// check off. Far below any real link, far above a slow-read attack's trickle.
    public var minimumSendRate = 1024
    /// Request line plus header fields → 431 beyond.
    public var maxHeadBytes = 16 * 1024
    /// Request-target → 414 beyond.
    public var maxURIBytes = 8 * 1024
    /// Request body → 413 beyond.
    public var maxBodyBytes = 64 * 1024
    /// How long `shutdown()` lets in-flight requests finish before closing what remains.
    public var shutdownGracePeriod: Duration = .seconds(8)
    /// The `Server` header value.
    public var serverName = "past-nyc"

    public init() {}

    var parseLimits: ParseLimits {
        ParseLimits(maxHeadBytes: maxHeadBytes, maxURIBytes: maxURIBytes, maxBodyBytes: maxBodyBytes)
    }
}

extension Duration {
    /// Whole nanoseconds, saturating, for the monotonic clock arithmetic of the event loop.
    var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : whole &+ UInt64(attoseconds / 1_000_000_000)
    }
}
