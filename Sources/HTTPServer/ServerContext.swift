import Basics
import Logging
import Synchronization

/// What every event loop shares: immutable settings, the router, the worker pool and
/// the count of open connections (atomic, as every loop accepts).
final class ServerContext: Sendable {
    let configuration: HTTPServerConfiguration
    let limits: ParseLimits
    let router: Router
    let logger: Logger
    let workers: WorkerPool
    let listenDescriptor: Int32
    let openConnections = Atomic<Int>(0)
    let requestTimeout: UInt64
    let idleTimeout: UInt64

    init(configuration: HTTPServerConfiguration, router: Router, logger: Logger, workers: WorkerPool, listenDescriptor: Int32) {
        self.configuration = configuration
        self.limits = configuration.parseLimits
        self.router = router
        self.logger = logger
        self.workers = workers
        self.listenDescriptor = listenDescriptor
        self.requestTimeout = configuration.headReadTimeout.nanoseconds
        self.idleTimeout = configuration.idleTimeout.nanoseconds
    }
}
