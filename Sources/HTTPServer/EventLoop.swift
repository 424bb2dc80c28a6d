import Dispatch
import CEpoll
import Descriptors
import Glibc
import Synchronization

/// One thread multiplexing many connections with epoll (level-triggered).
///
/// Why epoll rather than Dispatch sources: a Dispatch read source per connection costs a
/// block allocation per event, hops through a global queue (a thread wake-up per
/// readiness change) and needs locking around connection state touched from several
/// queue threads. One `epoll_wait` returns a batch of ready sockets to a thread that owns
/// them outright: no locks on the hot path, no allocation per event, and a wake-up only
/// when the kernel has work. Workers hand results back through an `eventfd`.
///
/// Every loop registers the shared listening socket with `EPOLLEXCLUSIVE`, so the kernel
/// wakes one loop per incoming connection and the accepted socket stays on that loop
/// (unless, near `maxConnections`, that loop has no idle connection to close: `place`).
///
/// `@unchecked Sendable`: only `tasks` (a `Mutex`) and the `eventfd` write in `execute`
/// are used from other threads; `nextLoop` and `loopCount` are set before any loop's
/// thread starts; every other property is touched only on the loop's own thread, inside
/// `run()` and the tasks it drains.
final class EventLoop: @unchecked Sendable {
    let context: ServerContext
    private let epoll: FileDescriptor
    private let wakeDescriptor: FileDescriptor
    /// Work for the loop's thread; nil once `run()` has returned. A task that comes later
    /// (a worker's response after the grace period forced the loop to stop) is dropped:
    /// kept, its closure would hold the loop and the loop the closure, and neither would
    /// ever be freed (AddressSanitizer's leak check found that cycle, docs/RELIABILITY.md).
    private let tasks = Mutex<[@Sendable () -> Void]?>([])

    private var connections: [Int32: Connection] = [:]
    private var nextConnectionID: UInt64 = 0
    private var listening = false
    /// When accepting was paused after `EMFILE`/`ENFILE`, the time to resume.
    private var acceptResumesAt: UInt64?
    private(set) var shuttingDown = false
    private var running = true
    private var nextSweep: UInt64 = 0
    /// The open connections' deadlines, so a sweep visits only those that are due.
    private var deadlines = DeadlineQueue()
    /// How often deadlines are checked: a tenth of the shortest timeout, within 1…100 ms.
    private let sweepInterval: UInt64
    let dateCache = HTTPDateCache()
    var requestIDs = RequestIDGenerator()
    /// This loop's counts of the requests it answered; nil unless the server records metrics.
    let requestMetrics: RequestMetrics?
    /// One read buffer for all of the loop's connections: a read copies out of it at once.
    let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    /// Connections whose response waits for the end of the current batch of events,
    /// in the order their responses were made (`holdsResponse(of:)`).
    private var heldResponses: [Connection] = []
    /// Whether responses made now wait for the end of the batch: only while the loop
    /// handles the events of one `epoll_wait`.
    private var holdingResponses = false
    /// The most responses held at once: each one held waits for the handlers of at most
    /// this many others, which the event loop runs only when they answer from memory.
    static let heldResponseLimit = 16

    static let acceptPause: UInt64 = 100_000_000

    /// The server's next loop, in a ring of all of them: where a loop that must make room
    /// and has no idle connection to close hands a new connection. Set once, before the
    /// loops run; weak, as the ring is a cycle.
    weak var nextLoop: EventLoop?
    /// How many loops the ring has: a new connection is handed on at most one fewer
    /// times. Set with `nextLoop`.
    var loopCount = 1

    init(context: ServerContext) throws(HTTPServerError) {
        self.context = context
        epoll = FileDescriptor(try systemCallValue("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) })
        wakeDescriptor = FileDescriptor(try systemCallValue("eventfd") { eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) })
        let settings = context.connectionSettings
        let shortest = min(settings.requestTimeout, settings.idleTimeout, settings.sendTimeout) / 10
        sweepInterval = min(max(shortest, 1_000_000), 100_000_000)
        requestMetrics =
            context.configuration.recordsMetrics
            ? RequestMetrics(patternCount: context.connectionSettings.router.patterns.count) : nil
    }

    deinit {
        readBuffer.deallocate()
    }

    /// Runs `task` on the loop's thread. Safe to call from any thread.
    func execute(_ task: @escaping @Sendable () -> Void) {
        let wasEmpty = tasks.withLock { queue in
            guard queue != nil else { return false }
            queue!.append(task)
            return queue!.count == 1
        }
        // Only the first task of a batch needs a wake-up: the loop drains all of them.
        if wasEmpty {
            var one: UInt64 = 1
            // Can only fail with EAGAIN, when the counter is saturated: a wake-up is pending anyway.
            _ = try? systemCall("write(eventfd)") { withUnsafeBytes(of: &one) { write(wakeDescriptor.rawValue, $0.baseAddress, 8) } }
        }
    }

    /// The loop itself; returns once shutdown has closed every connection or was forced.
    func run() throws(HTTPServerError) {
        try control(EPOLL_CTL_ADD, wakeDescriptor.rawValue, events: EPOLLIN.rawValue)
        try startListening()
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        while running {
            let timeout: Int32 = connections.isEmpty && acceptResumesAt == nil ? -1 : Int32(sweepInterval / 1_000_000)
            let count = try systemCallValue("epoll_wait") {
                events.withUnsafeMutableBufferPointer { buffer in
                    epoll_wait(epoll.rawValue, buffer.baseAddress, Int32(buffer.count), timeout)
                }
            }
            holdingResponses = true
            for index in 0..<Int(count) {
                let descriptor = events[index].data.fd
                let flags = events[index].events
                if descriptor == wakeDescriptor.rawValue {
                    drainTasks()
                } else if descriptor == context.listenSocket.rawValue {
                    acceptConnections()
                } else if let connection = connections[descriptor] {
                    connection.handle(events: flags)
                    schedule(connection)
                }
            }
            holdingResponses = false
            releaseHeldResponses()
            let now = MonotonicClock.now()
            if now >= nextSweep {
                nextSweep = now + sweepInterval
                sweep(now: now)
            }
        }
        for connection in Array(connections.values) { connection.close() }
        tasks.withLock { $0 = nil }
    }

    // MARK: Shutdown (run as tasks on the loop)

    /// Stops accepting, closes idle connections and lets the others finish their current
    /// request with `Connection: close`. `stoppedAccepting` is left once the listening
    /// socket is out of this loop's epoll set, so the server may close it.
    func beginShutdown(stoppedAccepting: DispatchGroup) {
        shuttingDown = true
        if listening {
            _ = try? control(EPOLL_CTL_DEL, context.listenSocket.rawValue, events: 0)
            listening = false
        }
        acceptResumesAt = nil
        stoppedAccepting.leave()
        for connection in Array(connections.values) {
            connection.shutdownRequested()
            schedule(connection)
        }
        if connections.isEmpty { running = false }
    }

    /// After the grace period: leave the loop, closing whatever is still open.
    func forceStop() {
        running = false
    }

    // MARK: Connections

    /// Delivers a worker's response to the connection that asked for it, if it is still open.
    func deliver(_ response: HTTPResponse, to descriptor: Int32, connectionID: UInt64) {
        guard let connection = connections[descriptor], connection.id == connectionID else { return }
        connection.handlerFinished(response)
        schedule(connection)
    }

    /// Whether `connection`'s encoded response waits to be written with the others of
    /// this batch of events (then the loop calls its `writeHeldResponse()`), or is to be
    /// written now.
    ///
    /// Why hold responses: on one host (a client, or the nginx of `deploy/`, over
    /// loopback) every write to a peer that sleeps in `epoll_wait` wakes it, which costs
    /// the writer an inter-processor interrupt, several microseconds in a virtual machine.
    /// Written one by one as they are made, each response found the peer asleep again;
    /// written back to back, a batch wakes it about once (docs/PERFORMANCE.md).
    func holdsResponse(of connection: Connection) -> Bool {
        guard holdingResponses else { return false }
        guard heldResponses.count + 1 < Self.heldResponseLimit else {
            // A full batch: the held ones go now, and this one with them.
            releaseHeldResponses()
            return false
        }
        heldResponses.append(connection)
        return true
    }

    /// Writes the held responses, in the order they were made. A connection whose write
    /// finishes may go on to its next pipelined request: that response is written at once.
    private func releaseHeldResponses() {
        let wasHolding = holdingResponses
        holdingResponses = false
        defer { holdingResponses = wasHolding }
        for connection in heldResponses {
            connection.writeHeldResponse()
            schedule(connection)
        }
        heldResponses.removeAll(keepingCapacity: true)
    }

    func connectionClosed(_ connection: Connection) {
        connections.removeValue(forKey: connection.socket.rawValue)
        deadlines.remove(descriptor: connection.socket.rawValue)
        context.openConnections.subtract(1, ordering: .relaxed)
        if connection.countedForClient { context.clientConnections.release(connection.peer) }
        if shuttingDown && connections.isEmpty { running = false }
    }

    func updateInterest(_ descriptor: Int32, events: UInt32) {
        do {
            try control(EPOLL_CTL_MOD, descriptor, events: events)
        } catch {
            connections[descriptor]?.close()
        }
    }

    private func drainTasks() {
        var counter: UInt64 = 0
        // Resets the counter; EAGAIN (already reset by an earlier drain) is harmless.
        _ = try? systemCall("read(eventfd)") { withUnsafeMutableBytes(of: &counter) { read(wakeDescriptor.rawValue, $0.baseAddress, 8) } }
        let batch = tasks.withLock { queue in
            let batch = queue ?? []
            queue?.removeAll(keepingCapacity: true)
            return batch
        }
        for task in batch { task() }
    }

    private func startListening() throws(HTTPServerError) {
        guard !shuttingDown else { return }
        try control(EPOLL_CTL_ADD, context.listenSocket.rawValue, events: EPOLLIN.rawValue | EPOLLEXCLUSIVE.rawValue)
        listening = true
    }

    private func acceptConnections() {
        for _ in 0..<64 {
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let result: IOResult<Int32>
            do {
                result = try withUnsafeMutablePointer(to: &address) { pointer throws(HTTPServerError) in
                    try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw throws(HTTPServerError) in
                        try systemCall("accept4") {
                            accept4(context.listenSocket.rawValue, raw, &length, Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue))
                        }
                    }
                }
            } catch .systemCall(_, let code) where [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(code) {
                // Out of descriptors: the pending connection stays in the backlog and the
                // socket stays readable, so stop polling it for a moment instead of spinning.
                pauseAccepting()
                return
            } catch {
                // ECONNABORTED and friends: that one connection failed; try the next.
                continue
            }
            switch result {
            case .done(let descriptor):
                admit(FileDescriptor(descriptor), address: address)
            case .wouldBlock:
                return
            }
        }
    }

    private func pauseAccepting() {
        guard listening else { return }
        _ = try? control(EPOLL_CTL_DEL, context.listenSocket.rawValue, events: 0)
        listening = false
        acceptResumesAt = MonotonicClock.now() + Self.acceptPause
    }

    // MARK: Admission

    /// Decides, before a byte is read, whether a new connection stays: first its peer's
    /// count of open connections (not kept for a trusted proxy, whose connections carry
    /// many clients), then room among all connections (`place`).
    private func admit(_ socket: FileDescriptor, address: sockaddr_storage) {
        guard !shuttingDown, let peer = IPAddress(address) else {
            socket.close()
            return
        }
        let configuration = context.configuration
        let isTrustedProxy = !configuration.trustedProxies.isEmpty && configuration.trustedProxies.contains(peer)
        let perClient = configuration.maxConnectionsPerClient
        let counted = perClient > 0 && !isTrustedProxy
        let peerAddress = peer.description
        if counted, !context.clientConnections.admit(peer, limit: perClient) {
            refuse(socket, ConnectionRefusal.tooManyFromClient(limit: perClient), rule: .connectionsPerClient, client: peerAddress)
            return
        }
        context.openConnections.add(1, ordering: .relaxed)
        place(
            AcceptedConnection(
                socket: socket, peer: peer, peerAddress: peerAddress, isTrustedProxy: isTrustedProxy, countedForClient: counted),
            handOvers: loopCount - 1)
    }

    /// Adopts an admitted connection, counted in `openConnections`. From 90 % of
    /// `maxConnections` on, each new connection first makes room: this loop closes its
    /// connection idle longest, or, having none idle, hands the new connection to the next
    /// loop (`handOvers` more times), as each loop closes only its own connections (as
    /// each nginx worker drains its own keep-alive connections). Past `maxConnections`, a
    /// connection that went round every loop without finding an idle one is answered `503`.
    func place(_ accepted: AcceptedConnection, handOvers: Int) {
        guard !shuttingDown else {
            release(accepted)
            accepted.socket.close()
            return
        }
        let open = context.openConnections.load(ordering: .relaxed)
        if open >= context.evictionThreshold, !closeLongestIdle() {
            if handOvers > 0, let next = nextLoop {
                next.execute { next.place(accepted, handOvers: handOvers - 1) }
                return
            }
            if open > context.configuration.maxConnections {
                release(accepted)
                refuse(accepted.socket, ConnectionRefusal.serverFull, rule: .connectionsFull, client: accepted.peerAddress)
                return
            }
        }
        adopt(accepted)
    }

    private func adopt(_ accepted: AcceptedConnection) {
        let descriptor = accepted.socket.rawValue
        do throws(HTTPServerError) {
            // Responses go out in one write each; Nagle would only delay them.
            var enable: Int32 = 1
            _ = try systemCallValue("setsockopt(TCP_NODELAY)") {
                setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &enable, socklen_t(MemoryLayout<Int32>.size))
            }
            try control(EPOLL_CTL_ADD, descriptor, events: EPOLLIN.rawValue)
        } catch {
            release(accepted)
            accepted.socket.close()
            return
        }
        nextConnectionID &+= 1
        let connection = Connection(accepted, id: nextConnectionID, loop: self, acceptedAt: MonotonicClock.now())
        connections[descriptor] = connection
        schedule(connection)
    }

    /// Undoes the counting of a connection that is not adopted.
    private func release(_ accepted: AcceptedConnection) {
        context.openConnections.subtract(1, ordering: .relaxed)
        if accepted.countedForClient { context.clientConnections.release(accepted.peer) }
    }

    /// Closes this loop's connection idle longest (the earliest idle deadline, as every
    /// idle deadline is the idle timeout after the last response); false when none is
    /// idle. A scan of the loop's connections, made only from 90 % of `maxConnections` on.
    private func closeLongestIdle() -> Bool {
        var longest: Connection?
        for connection in connections.values where connection.isIdle {
            if let current = longest, current.deadline <= connection.deadline { continue }
            longest = connection
        }
        guard let longest else { return false }
        context.refusals.record(.idleEvicted, client: longest.peerAddress)
        longest.close()
        return true
    }

    private func refuse(_ socket: FileDescriptor, _ error: HTTPError, rule: RefusalRule, client: String) {
        context.refusals.record(rule, client: client)
        ConnectionRefusal.answer(
            socket, with: error, requestID: requestIDs.next(), serverName: context.configuration.serverName,
            date: dateCache.current(), scratch: readBuffer)
    }

    private func sweep(now: UInt64) {
        if let resume = acceptResumesAt, now >= resume, !shuttingDown {
            acceptResumesAt = nil
            do {
                try startListening()
            } catch {
                acceptResumesAt = now + Self.acceptPause
            }
        }
        for due in deadlines.takeDue(now: now) {
            guard let connection = connections[due.descriptor], connection.id == due.connectionID else { continue }
            if connection.deadline <= now { connection.tick(now: now) }
            schedule(connection)
        }
    }

    /// Queues `connection`'s current deadline, unless it has closed. Called after every
    /// event that can move the deadline, which keeps `DeadlineQueue`'s invariant.
    private func schedule(_ connection: Connection) {
        let descriptor = connection.socket.rawValue
        guard connections[descriptor] === connection else { return }
        deadlines.schedule(descriptor: descriptor, connectionID: connection.id, deadline: connection.deadline)
    }

    private func control(_ operation: Int32, _ descriptor: Int32, events: UInt32) throws(HTTPServerError) {
        var event = epoll_event(events: events, data: epoll_data_t(fd: descriptor))
        _ = try systemCallValue("epoll_ctl") { epoll_ctl(epoll.rawValue, operation, descriptor, &event) }
    }
}
