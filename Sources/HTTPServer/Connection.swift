import CEpoll
import Descriptors
import Glibc

/// The I/O shell of one client connection: reads and writes its socket, keeps its
/// epoll interest and runs handlers, doing whatever its `ConnectionStateMachine`
/// answers to each event. Owned by one event loop and touched only on its thread (so
/// not `Sendable`).
final class Connection {
    let socket: FileDescriptor
    /// Distinguishes this connection from a later one that reuses the descriptor number.
    let id: UInt64
    /// The TCP peer, as accepted.
    let peer: IPAddress
    /// The peer's address in text, for log lines.
    let peerAddress: String
    /// The connection is counted against its peer's `maxConnectionsPerClient`, and
    /// released from that count when it closes.
    let countedForClient: Bool
    /// The loop that owns this connection and calls every method of it, so the loop is
    /// alive whenever the connection runs: `unowned(unsafe)` spares the reference count
    /// that a checked `unowned` read costs, several times per request.
    private unowned(unsafe) let loop: EventLoop
    private var machine: ConnectionStateMachine

    /// Bytes to write, in order: interim responses, response heads and bodies, each as
    /// it was made, so a body goes to the socket without being copied into a send buffer.
    /// Holds at most one response (and a `100 Continue`): the state machine waits for
    /// each to be written before it goes on.
    private var outbound: [[UInt8]] = []
    /// How much of `outbound[0]` is already written.
    private var outboundOffset = 0
    /// The streamed body of the response in `outbound`, sent once `outbound` is written.
    private var streamed: StreamedBodySender?
    private var registeredEvents = EPOLLIN.rawValue
    private var closed = false

    private static let epollIn = EPOLLIN.rawValue
    private static let epollOut = EPOLLOUT.rawValue

    init(_ admitted: AcceptedConnection, id: UInt64, loop: EventLoop, acceptedAt now: UInt64) {
        socket = admitted.socket
        self.id = id
        peer = admitted.peer
        peerAddress = admitted.peerAddress
        countedForClient = admitted.countedForClient
        self.loop = loop
        machine = ConnectionStateMachine(
            settings: loop.context.connectionSettings, peerAddress: admitted.peerAddress,
            peerIsTrustedProxy: admitted.isTrustedProxy, acceptedAt: now,
            makeRequestID: { [unowned(unsafe) loop] in loop.requestIDs.next() })
    }

    var deadline: UInt64 { machine.deadline }

    /// Idle between requests (`ConnectionStateMachine.isIdle`).
    var isIdle: Bool { machine.isIdle }

    // MARK: Events

    func handle(events: UInt32) {
        if events & Self.epollOut != 0 {
            perform(flush())
            // Closed by either: the descriptor number may already belong to someone else.
            if closed { return }
        }
        if events & Self.epollIn != 0 {
            readAvailable()
        } else if events & (EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 {
            perform(machine.peerClosed())
        }
    }

    func tick(now: UInt64) {
        perform(machine.tick(now: now))
    }

    func shutdownRequested() {
        perform(machine.shutdownRequested())
    }

    /// Writes the response the loop held for the end of its batch of events (`EventLoop.holdsResponse(of:)`).
    func writeHeldResponse() {
        guard !closed else { return }
        perform(flush())
    }

    func handlerFinished(_ response: HTTPResponse) {
        perform(machine.handlerFinished(response, now: MonotonicClock.now()))
    }

    /// Closes at once, whatever the state machine is doing (the loop is stopping).
    func close() {
        if closed { return }
        closed = true
        socket.close()
        loop.connectionClosed(self)
    }

    // MARK: Actions

    /// Performs `action` and the ones it leads to, until the connection waits for an event.
    /// Each action is consumed by its `switch`, so its payload (a request, a response) is
    /// moved into the bindings instead of copied, retain by retain, and destroyed twice.
    private func perform(_ first: consuming ConnectionAction) {
        var action = first
        while !closed {
            switch consume action {
            case .none:
                return
            case .awaitReadable:
                setInterest(Self.epollIn)
                return
            case .awaitWritable:
                setInterest(Self.epollOut)
                return
            case .sendContinue:
                outbound.append(ResponseEncoder.continueResponse)
                action = flush()
            case .respond(let response, let context, let log):
                let refusal = response.refusal
                let encoded = ResponseEncoder.encode(
                    response, context: context, serverName: loop.context.configuration.serverName,
                    date: loop.dateCache.current())
                outbound.append(encoded.head)
                if !encoded.body.isEmpty { outbound.append(encoded.body) }
                if let part = encoded.streamed { streamed = StreamedBodySender(part.body, range: part.range) }
                record(log, status: encoded.status, bytes: encoded.bodyBytes)
                if let refusal { loop.context.refusals.record(refusal, client: log.remote) }
                if loop.holdsResponse(of: self) { return }
                action = flush()
            case .handle(let request, let routed):
                let match = RequestPipeline.placing(routed, for: request)
                if case .found(.blocking, _, _, _) = match {
                    setInterest(0)
                    let loop = self.loop, descriptor = socket.rawValue, id = self.id
                    let logger = loop.context.logger
                    loop.context.workers.submit {
                        let response = RequestPipeline.response(to: request, match: match, logger: logger)
                        loop.execute { loop.deliver(response, to: descriptor, connectionID: id) }
                    }
                    return
                }
                if case .found(.deferred(let run), _, _, _) = match {
                    let workers = loop.context.workers
                    answerLater(request) { responder in workers.submit { responder.run(run) } }
                    return
                }
                if case .found(.handOff(let run), _, _, _) = match {
                    answerLater(request) { responder in run(request, responder) }
                    return
                }
                let response = RequestPipeline.response(to: request, match: match, logger: loop.context.logger)
                action = machine.handlerFinished(response, now: MonotonicClock.now())
            case .linger:
                shutdown(socket.rawValue, Int32(SHUT_WR))
                setInterest(Self.epollIn)
                return
            case .close:
                close()
                return
            }
        }
    }

    /// Logs an answered request and counts it in the loop's metrics, with one read of
    /// the clock for both (none when neither wants it).
    private func record(_ log: AccessLogEntry, status: HTTPStatus, bytes: Int) {
        let accessLog = loop.context.accessLog
        let metrics = loop.requestMetrics
        guard accessLog.isEnabled || metrics != nil else { return }
        let duration = MonotonicClock.now() &- log.startedAt
        accessLog.record(
            method: log.method, path: log.path, status: status, bytes: bytes, nanoseconds: duration,
            requestID: log.requestID, remote: log.remote)
        metrics?.record(route: log.route, method: log.method, status: status, nanoseconds: duration)
    }

    /// Stops reading while a `deferred` or `handOff` handler works on `request`, and hands
    /// `start` the responder through which the answer, from any thread, reaches this
    /// connection on its event loop.
    private func answerLater(_ request: HTTPRequest, _ start: (HTTPResponder) -> Void) {
        setInterest(0)
        let loop = self.loop, descriptor = socket.rawValue, id = self.id
        start(HTTPResponder(request: request, logger: loop.context.logger) { response in
            loop.execute { loop.deliver(response, to: descriptor, connectionID: id) }
        })
    }

    // MARK: Reading

    private func readAvailable() {
        let result: IOResult<Int>
        do {
            // `recv`, not `read`: the socket call skips the file layer's checks and notifications.
            result = try systemCall("recv") { recv(socket.rawValue, loop.readBuffer.baseAddress, loop.readBuffer.count, 0) }
        } catch {
            perform(machine.peerClosed())
            return
        }
        guard case .done(let count) = result else { return }
        guard count > 0 else {
            perform(machine.peerClosed())
            return
        }
        perform(machine.received(UnsafeRawBufferPointer(rebasing: loop.readBuffer[0..<count]), now: MonotonicClock.now()))
    }

    // MARK: Writing

    /// Writes as much of `outbound`, then of the streamed body, as the socket takes and
    /// tells the state machine how far it got.
    private func flush() -> ConnectionAction {
        var total = 0
        while true {
            let result: IOResult<Int>
            do {
                if !outbound.isEmpty {
                    result = try sendOutbound()
                } else if let streamed, !streamed.isFinished {
                    result = try streamed.send(to: socket.rawValue)
                } else {
                    break
                }
            } catch {
                if case .truncatedFile = error as? HTTPServerError {
                    // The head is gone already: all that is left is to cut the body short.
                    loop.context.logger.error("a streamed body's file was cut short", metadata: ["error": "\(error)"])
                }
                return machine.peerClosed()
            }
            switch result {
            case .done(let written):
                if !outbound.isEmpty { consumeOutbound(written) }
                total += written
            case .wouldBlock:
                return machine.writeBlocked(written: total, now: MonotonicClock.now())
            }
        }
        streamed = nil
        return machine.writeFinished(written: total, now: MonotonicClock.now())
    }

    /// One `sendmsg` of the unwritten rest of `outbound[0]` and, when there is one,
    /// all of `outbound[1]`: a response head and its body leave in one system call.
    /// With a streamed body to follow, `MSG_MORE` lets the head leave with its first bytes.
    private func sendOutbound() throws -> IOResult<Int> {
        let descriptor = socket.rawValue
        let flags = Int32(MSG_NOSIGNAL) | (streamed == nil ? 0 : Int32(MSG_MORE))
        return try outbound[0].withUnsafeBytes { first in
            let rest = UnsafeRawBufferPointer(rebasing: first[outboundOffset...])
            guard outbound.count > 1 else { return try Self.send(rest, .init(start: nil, count: 0), to: descriptor, flags: flags) }
            return try outbound[1].withUnsafeBytes { second in
                try Self.send(rest, second, to: descriptor, flags: flags)
            }
        }
    }

    private static func send(
        _ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer, to descriptor: Int32, flags: Int32
    ) throws(HTTPServerError) -> IOResult<Int> {
        var vectors = (
            iovec(iov_base: UnsafeMutableRawPointer(mutating: first.baseAddress), iov_len: first.count),
            iovec(iov_base: UnsafeMutableRawPointer(mutating: second.baseAddress), iov_len: second.count))
        return try withUnsafeMutableBytes(of: &vectors) { vectorBytes throws(HTTPServerError) in
            var message = msghdr()
            message.msg_iov = vectorBytes.baseAddress!.assumingMemoryBound(to: iovec.self)
            message.msg_iovlen = second.isEmpty ? 1 : 2
            return try systemCall("sendmsg") { sendmsg(descriptor, &message, flags) }
        }
    }

    /// Drops the `written` bytes from the front of `outbound`.
    private func consumeOutbound(_ written: Int) {
        if outbound.count == 2, written == outbound[0].count - outboundOffset + outbound[1].count {
            // A head and its body, written whole: the usual case, without shifting the array.
            outbound.removeAll(keepingCapacity: true)
            outboundOffset = 0
            return
        }
        var remaining = written
        while remaining > 0 {
            let unwritten = outbound[0].count - outboundOffset
            guard remaining >= unwritten else {
                outboundOffset += remaining
                return
            }
            remaining -= unwritten
            outbound.removeFirst()
            outboundOffset = 0
        }
    }

    private func setInterest(_ events: UInt32) {
        guard events != registeredEvents else { return }
        registeredEvents = events
        loop.updateInterest(socket.rawValue, events: events)
    }
}
