import Basics
import Descriptors
import Logging
import Synchronization

/// What every event loop shares: immutable settings, the router, the worker pool, the
/// listening socket and the counts of open connections, in all and per client address
/// (shared, as every loop accepts).
final class ServerContext: Sendable {
    let configuration: HTTPServerConfiguration
    let connectionSettings: ConnectionSettings
    let logger: Logger
    let accessLog: AccessLog
    let refusals: Refusals
    let workers: WorkerPool
    let listenSocket: FileDescriptor
    let openConnections = Atomic<Int>(0)
    let clientConnections = ClientConnectionCounts()
    /// 90 % of `maxConnections`, rounded up: from this many open connections on, a new one
    /// makes room by closing an idle one.
    let evictionThreshold: Int

    init(
        configuration: HTTPServerConfiguration, router: Router, logger: Logger, refusals: Refusals, workers: WorkerPool,
        listenSocket: FileDescriptor
    ) {
        self.configuration = configuration
        self.connectionSettings = ConnectionSettings(configuration: configuration, router: router)
        self.logger = logger
        self.accessLog = AccessLog(logger: logger)
        self.refusals = refusals
        self.workers = workers
        self.listenSocket = listenSocket
        self.evictionThreshold = (configuration.maxConnections * 9 + 9) / 10
    }
}
