import Basics
import CEpoll
import Descriptors
import Dispatch
import Glibc
import Logging
import Synchronization

/// An HTTP/1.1 server on non-blocking sockets: one epoll event loop per core sharing a
/// listening socket, and a pool of worker threads for blocking handlers.
///
/// The process must ignore `SIGPIPE` (the executable does, at start): a peer that hangs
/// up must not kill it. The server's own sends use `MSG_NOSIGNAL` anyway.
///
/// `Sendable`: the mutable state lives in a `Mutex`, everything else is immutable, so
/// `shutdown()` may be called from any thread, e.g. a signal handler's queue.
public final class HTTPServer: Sendable {
    private let configuration: HTTPServerConfiguration
    private let router: Router
    private let logger: Logger
    /// Where the connection rules count what they refuse; the application shares it.
    public let refusals: Refusals

    private enum Phase {
        case idle
        case running(Running)
        case stopped
    }

    private struct Running {
        var listenSocket: FileDescriptor
        var port: Int
        var loops: [EventLoop]
        var threads: [NativeThread]
        var workers: WorkerPool
        var finished: DispatchGroup
    }

    private let state = Mutex<Phase>(.idle)
    /// Held for the whole of `shutdown()`, so a second caller waits for the first to finish.
    private let shutdownLock = Mutex<Void>(())

    /// - Parameter refusals: the process's refusal counter; nil makes one for this server.
    public init(configuration: HTTPServerConfiguration, router: Router, logger: Logger, refusals: Refusals? = nil) {
        self.configuration = configuration
        self.router = router
        self.logger = logger
        self.refusals = refusals ?? Refusals(logger: logger)
    }

    /// The bound port (the ephemeral one when configured with 0), or 0 before `start()`.
    public var port: Int {
        state.withLock { phase in
            if case .running(let running) = phase { return running.port }
            return 0
        }
    }

    /// The event loops while the server runs, empty before and after: what a scrape reads.
    var runningLoops: [EventLoop] {
        state.withLock { phase in
            if case .running(let running) = phase { return running.loops }
            return []
        }
    }

    /// The routes as the request metrics name them: the router's patterns, then the
    /// labels of a path no route binds and of a request that could not be read.
    var routeLabels: [String] {
        router.patterns + [RouteLabel.unmatchedName, RouteLabel.unreadName]
    }

    /// Binds, listens and starts the event loops and worker pool; returns once listening.
    public func start() throws {
        try state.withLock { phase throws(HTTPServerError) in
            guard case .idle = phase else { throw .notStartable }
            let (socket, port) = try Self.listen(host: configuration.host, port: configuration.port)
            do throws(HTTPServerError) {
                phase = .running(try startLoops(listenSocket: socket, port: port))
            } catch {
                socket.close()
                throw error
            }
        }
        logger.notice("listening", metadata: ["host": .string(configuration.host), "port": .stringConvertible(port)])
    }

    /// Graceful: stop accepting, finish in-flight requests, close idle connections; returns
    /// when all connections are closed or the grace period ran out. Idempotent.
    public func shutdown() {
        shutdownLock.withLock { _ in
            let running: Running? = state.withLock { phase in
                guard case .running(let running) = phase else { return nil }
                phase = .stopped
                return running
            }
            guard let running else { return }
            let stoppedAccepting = DispatchGroup()
            for loop in running.loops {
                stoppedAccepting.enter()
                loop.execute { loop.beginShutdown(stoppedAccepting: stoppedAccepting) }
            }
            stoppedAccepting.wait()
            // No loop polls it any more: closing it now refuses new connections.
            running.listenSocket.close()
            let graceEnds = DispatchTime.now() + .nanoseconds(Int(clamping: configuration.shutdownGracePeriod.nanoseconds))
            if running.finished.wait(timeout: graceEnds) == .timedOut {
                logger.warning("shutdown grace period ended; closing the remaining connections")
                for loop in running.loops { loop.execute { loop.forceStop() } }
            }
            for thread in running.threads { thread.join() }
            running.workers.stop()
            logger.notice("stopped")
        }
    }

    private func startLoops(listenSocket: FileDescriptor, port: Int) throws(HTTPServerError) -> Running {
        let workers = try HTTPServerError.rethrowing { () throws(SystemCallError) in
            try WorkerPool(threadCount: configuration.workerThreads, name: "http-worker")
        }
        let context = ServerContext(
            configuration: configuration, router: router, logger: logger, refusals: refusals, workers: workers,
            listenSocket: listenSocket)
        let loopCount = max(configuration.eventLoopCount ?? Self.usableCPUCount(), 1)
        let loops = try (0..<loopCount).map { _ throws(HTTPServerError) in try EventLoop(context: context) }
        for (index, loop) in loops.enumerated() {
            loop.nextLoop = loops[(index + 1) % loopCount]
            loop.loopCount = loopCount
        }
        var threads: [NativeThread] = []
        let finished = DispatchGroup()
        for loop in loops {
            finished.enter()
            let logger = self.logger
            let thread = try HTTPServerError.rethrowing { () throws(SystemCallError) in
                try NativeThread.spawn(name: "event-loop") {
                    do {
                        try loop.run()
                    } catch {
                        logger.critical("event loop failed", metadata: ["error": "\(error)"])
                    }
                    finished.leave()
                }
            }
            threads.append(thread)
        }
        return Running(
            listenSocket: listenSocket, port: port, loops: loops, threads: threads, workers: workers,
            finished: finished)
    }

    /// The CPUs this process may run on: the affinity mask (taskset, cpusets), not every
    /// CPU online. The server runs one event loop per CPU, since two loops sharing a core
    /// only add scheduling delay.
    public static func usableCPUCount() -> Int {
        var set = cpu_set_t()
        guard sched_getaffinity(0, MemoryLayout<cpu_set_t>.size, &set) == 0 else {
            return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        }
        let count = withUnsafeBytes(of: &set) { bytes in bytes.reduce(0) { $0 + $1.nonzeroBitCount } }
        return max(1, count)
    }

    private static func listen(host: String, port: Int) throws(HTTPServerError) -> (FileDescriptor, Int) {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
        guard port >= 0, port <= 65535, inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            throw .invalidHost(host)
        }
        let socket = FileDescriptor(
            try systemCallValue("socket") {
                Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
            })
        let descriptor = socket.rawValue
        do {
            var enable: Int32 = 1
            _ = try systemCallValue("setsockopt(SO_REUSEADDR)") {
                setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &enable, socklen_t(MemoryLayout<Int32>.size))
            }
            _ = try withUnsafePointer(to: &address) { pointer throws(HTTPServerError) in
                try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw throws(HTTPServerError) in
                    try systemCallValue("bind") { bind(descriptor, raw, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                }
            }
            _ = try systemCallValue("listen") { Glibc.listen(descriptor, SOMAXCONN) }
            var bound = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = try withUnsafeMutablePointer(to: &bound) { pointer throws(HTTPServerError) in
                try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw throws(HTTPServerError) in
                    try systemCallValue("getsockname") { getsockname(descriptor, raw, &length) }
                }
            }
            return (socket, Int(UInt16(bigEndian: bound.sin_port)))
        } catch {
            socket.close()
            throw error
        }
    }
}
