/// What every connection's state machine reads and never changes: the routes, the
/// parse limits, the trusted proxies and the timeouts, in nanoseconds of the monotonic clock.
final class ConnectionSettings: Sendable {
    let router: Router
    let limits: ParseLimits
    /// Reading a request's head and body; the first request's counts from the accept.
    let requestTimeout: UInt64
    /// A keep-alive connection between requests.
    let idleTimeout: UInt64
    /// A blocked write that makes no progress; also the grace before `minimumSendRate` counts.
    let sendTimeout: UInt64
    /// Bytes per second a peer that does not keep up must still take; 0: no minimum.
    let minimumSendRate: UInt64
    /// The lingering close after a closing response.
    let lingerTimeout: UInt64 = 1_000_000_000
    /// Whose `X-Forwarded-For` names the client, on connections from one of them.
    let trustedProxies: TrustedProxies

    init(configuration: HTTPServerConfiguration, router: Router) {
        self.router = router
        self.limits = configuration.parseLimits
        self.requestTimeout = configuration.headReadTimeout.nanoseconds
        self.idleTimeout = configuration.idleTimeout.nanoseconds
        self.sendTimeout = configuration.sendTimeout.nanoseconds
        self.minimumSendRate = UInt64(max(configuration.minimumSendRate, 0))
        self.trustedProxies = configuration.trustedProxies
    }
}
