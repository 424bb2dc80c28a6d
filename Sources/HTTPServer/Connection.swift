import CEpoll
import Glibc
import Logging

/// One client connection, owned by one event loop and touched only on its thread (so
/// not `Sendable`). Requests are handled strictly one at a time: the next pipelined
/// request is parsed only after the previous response is fully written, which keeps
/// responses in order and stops reading while a response is pending (back-pressure).
final class Connection {
    let descriptor: Int32
    /// Distinguishes this connection from a later one that reuses the descriptor number.
    let id: UInt64
    let remoteAddress: String
    private unowned let loop: EventLoop

    private enum State {
        case readingHead
        case readingBody(Exchange, framing: BodyFraming)
        case awaitingHandler(Exchange)
        /// After a closing response: write side shut, reading and discarding until the
        /// peer closes, so unread request bytes do not turn our close into a reset that
        /// destroys the response in flight (RFC 9112 §9.6).
        case lingering
        case closed
    }

    /// A request being answered: what the response and the access log need.
    private struct Exchange {
        var head: RequestHead
        var requestID: String
        var startedAt: UInt64
        var match: Router.Match
    }

    private enum DeadlineKind {
        case idle, request, write, linger
    }

    private var state = State.readingHead
    private var inbound: [UInt8] = []
    private var inboundStart = 0
    /// Bytes to write, in order: interim responses, response heads and bodies, each as
    /// it was made, so a body goes to the socket without being copied into a send buffer.
    /// Holds at most one response (and a `100 Continue`): see the type's comment.
    private var outbound: [[UInt8]] = []
    /// How much of `outbound[0]` is already written.
    private var outboundOffset = 0
    private var body: [UInt8] = []
    private var chunkedDecoder: ChunkedBodyDecoder?
    private var closeAfterWrite = false
    private var registeredEvents = EPOLLIN.rawValue
    private(set) var deadline: UInt64 = .max
    private var deadlineKind = DeadlineKind.idle

    static let lingerTimeout: UInt64 = 1_000_000_000
    private static let epollIn = EPOLLIN.rawValue
    private static let epollOut = EPOLLOUT.rawValue

    init(descriptor: Int32, id: UInt64, remoteAddress: String, loop: EventLoop) {
        self.descriptor = descriptor
        self.id = id
        self.remoteAddress = remoteAddress
        self.loop = loop
    }

    func started(now: UInt64) {
        setDeadline(.idle, now: now)
    }

    // MARK: Events

    func handle(events: UInt32) {
        if events & Self.epollOut != 0 {
            flush()
            if outbound.isEmpty { drive() }
            // Closed by either: the descriptor number may already belong to someone else.
            if case .closed = state { return }
        }
        if events & Self.epollIn != 0 {
            readAvailable()
        } else if events & (EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 {
            close()
        }
    }

    func deadlinePassed() {
        switch deadlineKind {
        case .request:
            switch state {
            case .readingHead, .readingBody:
                respondToInvalid(.requestTimeout, detail: "The request was not received in time.")
            default:
                close()
            }
        case .idle, .write, .linger:
            close()
        }
    }

    func shutdownRequested() {
        if case .readingHead = state, inboundStart == inbound.count, outbound.isEmpty {
            close()
        }
    }

    func handlerFinished(_ response: HTTPResponse) {
        guard case .awaitingHandler(let exchange) = state else { return }
        respond(response, to: exchange)
        drive()
    }

    func close() {
        if case .closed = state { return }
        state = .closed
        Glibc.close(descriptor)
        loop.connectionClosed(self)
    }

    // MARK: Reading

    private func readAvailable() {
        let result: IOResult<Int>
        do {
            result = try systemCall("read") { read(descriptor, loop.readBuffer.baseAddress, loop.readBuffer.count) }
        } catch {
            close()
            return
        }
        guard case .done(let count) = result else { return }
        guard count > 0 else {
            close()
            return
        }
        if case .lingering = state { return }
        if inboundStart == inbound.count {
            inbound.removeAll(keepingCapacity: true)
            inboundStart = 0
        } else if inboundStart > 0 {
            // Keep only the unparsed tail (a partial pipelined request), so the buffer cannot grow without bound.
            inbound.removeSubrange(0..<inboundStart)
            inboundStart = 0
        }
        inbound.append(contentsOf: UnsafeRawBufferPointer(rebasing: loop.readBuffer[0..<count]))
        drive()
    }

    /// Advances the connection as far as the buffered bytes allow.
    private func drive() {
        while true {
            if !outbound.isEmpty {
                flush()
                guard outbound.isEmpty else { return }
            }
            switch state {
            case .closed:
                return
            case .lingering:
                setInterest(Self.epollIn)
                return
            case .awaitingHandler:
                setInterest(0)
                return
            case .readingHead:
                guard inboundStart < inbound.count else {
                    if loop.shuttingDown {
                        close()
                        return
                    }
                    if deadlineKind != .idle { setDeadline(.idle, now: MonotonicClock.now()) }
                    setInterest(Self.epollIn)
                    return
                }
                if deadlineKind != .request { setDeadline(.request, now: MonotonicClock.now()) }
                let result = inbound.withUnsafeBufferPointer { buffer in
                    RequestHeadParser.parse(UnsafeBufferPointer(rebasing: buffer[inboundStart...]), limits: loop.context.limits)
                }
                switch result {
                case .incomplete:
                    setInterest(Self.epollIn)
                    return
                case .invalid(let status, let reason):
                    respondToInvalid(status, detail: reason)
                case .complete(let head, let consumed):
                    inboundStart += consumed
                    begin(head)
                }
            case .readingBody(let exchange, let framing):
                guard readBody(exchange, framing: framing) else {
                    setInterest(Self.epollIn)
                    return
                }
            }
        }
    }

    /// Starts answering a parsed head: route it, then read its body or dispatch it.
    private func begin(_ head: RequestHead) {
        let sentID = head.headers["X-Request-ID"]
        let requestID = sentID.flatMap { RequestID.isAcceptable($0) ? $0 : nil } ?? loop.requestIDs.next()
        let exchange = Exchange(
            head: head, requestID: requestID, startedAt: MonotonicClock.now(),
            match: loop.context.router.match(head.method, path: head.path))
        body.removeAll(keepingCapacity: true)
        switch head.framing {
        case .none:
            dispatch(exchange)
        case .contentLength, .chunked:
            if head.expectsContinue {
                if case .found = exchange.match {
                    // RFC 9110 §10.1.1: the client waits for this before sending the body.
                    if inboundStart == inbound.count { outbound.append(ResponseEncoder.continueResponse) }
                } else {
                    // The body is not wanted: answer now, without reading it, and close.
                    closeAfterWrite = true
                    dispatch(exchange)
                    return
                }
            }
            chunkedDecoder = head.framing == .chunked ? ChunkedBodyDecoder(maxBodyBytes: loop.context.limits.maxBodyBytes) : nil
            state = .readingBody(exchange, framing: head.framing)
        }
    }

    /// Moves buffered body bytes into `body`; true when the state changed (body done or rejected).
    private func readBody(_ exchange: Exchange, framing: BodyFraming) -> Bool {
        switch framing {
        case .none:
            dispatch(exchange)
            return true
        case .contentLength(let length):
            let take = min(length - body.count, inbound.count - inboundStart)
            body.append(contentsOf: inbound[inboundStart..<(inboundStart + take)])
            inboundStart += take
            guard body.count == length else { return false }
            dispatch(exchange)
            return true
        case .chunked:
            guard var decoder = chunkedDecoder else { return false }
            let progress = inbound.withUnsafeBufferPointer { buffer in
                decoder.decode(UnsafeBufferPointer(rebasing: buffer[inboundStart...]), into: &body)
            }
            chunkedDecoder = decoder
            switch progress {
            case .incomplete(let consumed):
                inboundStart += consumed
                return false
            case .complete(let consumed):
                inboundStart += consumed
                chunkedDecoder = nil
                dispatch(exchange)
                return true
            case .invalid(let status, let reason):
                chunkedDecoder = nil
                respondToInvalid(status, detail: reason, exchange: exchange)
                return true
            }
        }
    }

    // MARK: Handling

    private func dispatch(_ exchange: Exchange) {
        let head = exchange.head
        var request = HTTPRequest(
            method: head.method, target: head.target, path: head.path, queryItems: head.queryItems,
            version: head.version, headers: head.headers, body: body, remoteAddress: remoteAddress,
            requestID: exchange.requestID)
        body = []
        switch exchange.match {
        case .found(let handler, let pathParameters):
            request.pathParameters = pathParameters
            switch handler.placement(for: request) {
            case .immediate(let run):
                respond(Self.run(run, request, logger: loop.context.logger), to: exchange)
            case .blocking(let run):
                state = .awaitingHandler(exchange)
                // The handler may take its time; the request deadline covered only the reading.
                deadline = .max
                let loop = self.loop, descriptor = self.descriptor, id = self.id
                let logger = loop.context.logger
                let request = request
                loop.context.workers.submit {
                    let response = Self.run(run, request, logger: logger)
                    loop.execute { loop.deliver(response, to: descriptor, connectionID: id) }
                }
            }
        case .methodNotAllowed(let allowed):
            let allow = allowed.map(\.rawValue).joined(separator: ", ")
            if head.method == .options {
                respond(Self.options(allow: allow, headers: head.headers), to: exchange)
            } else {
                let error = HTTPError(
                    .methodNotAllowed, detail: "\(head.method.rawValue) is not allowed on this path; use \(allow).",
                    headers: HTTPHeaders([("Allow", allow)]))
                respond(error.problemResponse, to: exchange)
            }
        case .notFound:
            respond(HTTPError(.notFound, detail: "No resource at this path.").problemResponse, to: exchange)
        }
    }

    /// `OPTIONS` on a known path: 204 with `Allow`; a CORS preflight also gets the
    /// `Access-Control-Allow-*` answers (Fetch standard, CORS protocol).
    private static func options(allow: String, headers: HTTPHeaders) -> HTTPResponse {
        var response = HTTPResponse.empty(.noContent)
        response.headers.add("Allow", allow)
        if headers.contains("Origin"), headers.contains("Access-Control-Request-Method") {
            response.headers.add("Access-Control-Allow-Methods", allow)
            response.headers.add("Access-Control-Allow-Headers", "Authorization, Content-Type, If-None-Match, X-Request-ID")
            response.headers.add("Access-Control-Max-Age", "86400")
        }
        return response
    }

    /// Runs a handler, turning a thrown `HTTPError` into its problem and anything else
    /// into a generic 500 whose details go to the log only.
    private static func run(
        _ handler: (HTTPRequest) throws -> HTTPResponse, _ request: HTTPRequest, logger: Logger
    ) -> HTTPResponse {
        do {
            return try handler(request)
        } catch let error as HTTPError {
            return error.problemResponse
        } catch {
            logger.error(
                "handler failed",
                metadata: ["error": "\(error)", "path": .string(request.path), "request_id": .string(request.requestID)])
            return HTTPError(.internalServerError, detail: "The server could not complete the request.").problemResponse
        }
    }

    // MARK: Writing

    /// Answers a request that could not be read (malformed, too large, too slow), then closes.
    private func respondToInvalid(_ status: HTTPStatus, detail: String, exchange: Exchange? = nil) {
        closeAfterWrite = true
        let response = HTTPError(status, detail: detail).problemResponse
        if let exchange {
            respond(response, to: exchange)
            return
        }
        let placeholder = RequestHead(
            method: .get, target: "", path: "", queryItems: [], version: .http1_1, headers: HTTPHeaders(),
            framing: .none, keepAlive: false, expectsContinue: false)
        respond(
            response,
            to: Exchange(head: placeholder, requestID: loop.requestIDs.next(), startedAt: MonotonicClock.now(), match: .notFound),
            logPath: "-", logMethod: HTTPMethod(rawValue: "-"))
    }

    private func respond(_ response: HTTPResponse, to exchange: Exchange, logPath: String? = nil, logMethod: HTTPMethod? = nil) {
        let head = exchange.head
        if !head.keepAlive || loop.shuttingDown { closeAfterWrite = true }
        let context = ResponseEncoder.Context(
            method: head.method, requestHeaders: head.headers, requestID: exchange.requestID, closing: closeAfterWrite,
            echoKeepAlive: head.version == .http1_0 && !closeAfterWrite)
        let encoded = ResponseEncoder.encode(
            response, context: context, serverName: loop.context.configuration.serverName, date: loop.dateCache.current())
        outbound.append(encoded.head)
        if !encoded.body.isEmpty { outbound.append(encoded.body) }
        state = .readingHead
        setDeadline(.idle, now: MonotonicClock.now())
        AccessLog.record(
            loop.context.logger, method: logMethod ?? head.method, path: logPath ?? head.path, status: encoded.status,
            bytes: encoded.body.count, startedAt: exchange.startedAt, requestID: exchange.requestID, remote: remoteAddress)
        flush()
    }

    /// Writes as much of `outbound` as the socket takes; on completion of a closing
    /// response, starts the lingering close.
    private func flush() {
        if case .closed = state { return }
        while !outbound.isEmpty {
            let result: IOResult<Int>
            do {
                result = try sendOutbound()
            } catch {
                close()
                return
            }
            switch result {
            case .done(let written):
                consumeOutbound(written)
                if deadlineKind == .write { setDeadline(.write, now: MonotonicClock.now()) }
            case .wouldBlock:
                if deadlineKind != .write { setDeadline(.write, now: MonotonicClock.now()) }
                setInterest(Self.epollOut)
                return
            }
        }
        if closeAfterWrite, case .readingHead = state {
            state = .lingering
            shutdown(descriptor, Int32(SHUT_WR))
            setDeadline(.linger, now: MonotonicClock.now())
            setInterest(Self.epollIn)
        } else if deadlineKind == .write {
            setDeadline(.idle, now: MonotonicClock.now())
        }
    }

    /// One `sendmsg` of the unwritten rest of `outbound[0]` and, when there is one,
    /// all of `outbound[1]`: a response head and its body leave in one system call.
    private func sendOutbound() throws -> IOResult<Int> {
        let descriptor = self.descriptor
        return try outbound[0].withUnsafeBytes { first in
            let rest = UnsafeRawBufferPointer(rebasing: first[outboundOffset...])
            guard outbound.count > 1 else { return try Self.send(rest, .init(start: nil, count: 0), to: descriptor) }
            return try outbound[1].withUnsafeBytes { second in
                try Self.send(rest, second, to: descriptor)
            }
        }
    }

    private static func send(
        _ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer, to descriptor: Int32
    ) throws(HTTPServerError) -> IOResult<Int> {
        var vectors = (
            iovec(iov_base: UnsafeMutableRawPointer(mutating: first.baseAddress), iov_len: first.count),
            iovec(iov_base: UnsafeMutableRawPointer(mutating: second.baseAddress), iov_len: second.count))
        return try withUnsafeMutableBytes(of: &vectors) { vectorBytes throws(HTTPServerError) in
            var message = msghdr()
            message.msg_iov = vectorBytes.baseAddress!.assumingMemoryBound(to: iovec.self)
            message.msg_iovlen = second.isEmpty ? 1 : 2
            return try systemCall("sendmsg") { sendmsg(descriptor, &message, Int32(MSG_NOSIGNAL)) }
        }
    }

    /// Drops the `written` bytes from the front of `outbound`.
    private func consumeOutbound(_ written: Int) {
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
        loop.updateInterest(descriptor, events: events)
    }

    private func setDeadline(_ kind: DeadlineKind, now: UInt64) {
        deadlineKind = kind
        let timeout =
            switch kind {
            case .idle, .write: loop.context.idleTimeout
            case .request: loop.context.requestTimeout
            case .linger: Self.lingerTimeout
            }
        deadline = timeout > UInt64.max - now ? .max : now + timeout
    }
}
