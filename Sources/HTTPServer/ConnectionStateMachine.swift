/// The logic of one HTTP/1.1 connection without its socket, its thread or a clock:
/// events go in (bytes received, a write finished or blocked, a handler's response,
/// a tick of the clock, shutdown) and each returns the one `ConnectionAction` the I/O
/// shell (`Connection`, or `InMemoryConnection` in tests) performs next. Every
/// deadline lives here and is measured against the `now` each event carries, so tests
/// drive the timeouts with a fake clock instead of waiting for them.
///
/// Requests are handled strictly one at a time: the next pipelined request is parsed
/// only after the previous response is fully written, which keeps responses in order
/// and stops reading while a response is pending (back-pressure).
struct ConnectionStateMachine {
    private enum State {
        case readingHead
        case readingBody(Exchange, framing: BodyFraming)
        /// The request is with the shell (`.handle`); its exchange is in `answering`.
        case awaitingHandler
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
        /// `HTTPRequest.remoteAddress`: the peer, or the client a trusted proxy forwarded for.
        var clientAddress: String
    }

    /// Which timeout `deadline` stands for.
    enum DeadlineKind: Equatable {
        /// Reading a request head and body. The first request's counts from the accept,
        /// as nginx's `client_header_timeout` does, so a connection that never sends a
        /// byte is closed too; later ones count from their first byte.
        case request
        /// A keep-alive connection between requests.
        case idle
        /// A response the peer does not keep up with: closed when it takes nothing for the
        /// send timeout (nginx's `send_timeout`), or less than the minimum rate allows since
        /// it stopped keeping up (a reader that trickles would otherwise hold it for ever).
        case write
        /// The lingering close after a closing response.
        case linger
    }

    private let settings: ConnectionSettings
    /// The TCP peer's address, in `IPAddress`'s spelling.
    private let peerAddress: String
    /// The peer is a trusted proxy: each request's client address is read from its
    /// `X-Forwarded-For`. Decided once per connection, so a request from any other peer
    /// pays one branch for it.
    private let peerIsTrustedProxy: Bool
    /// Request ids for requests that bring no acceptable `X-Request-ID`.
    private let makeRequestID: () -> String

    private var state = State.readingHead
    /// The exchange of the request handed to the shell, until its response. Kept beside
    /// `state`, not in it, so `handlerFinished` moves it out (`take()`) instead of copying
    /// the request's strings and headers out of the enum, retain by retain.
    private var answering: Exchange?
    private var inbound: [UInt8] = []
    private var inboundStart = 0
    private var body: [UInt8] = []
    private var chunkedDecoder: ChunkedBodyDecoder?
    private var closeAfterWrite = false
    /// The shell holds bytes not yet written; nothing more is parsed until they are.
    private var writing = false
    private var shuttingDown = false
    /// Since when the peer has not kept up with what we write (a write blocked), and how
    /// many bytes it has taken since; nil while writes complete. Kept across the responses
    /// to requests it pipelined meanwhile, so a slow reader cannot restart it with each.
    private var slowSend: (since: UInt64, written: UInt64)?
    /// When the peer last took a byte of a blocked write.
    private var lastSendProgress: UInt64 = 0
    /// When the current timeout fires; `.max` while a handler runs.
    private(set) var deadline: UInt64 = .max
    private(set) var deadlineKind = DeadlineKind.request

    /// A connection accepted at `now` from `peerAddress`: the first request's head must
    /// arrive within the request timeout.
    init(
        settings: ConnectionSettings, peerAddress: String, peerIsTrustedProxy: Bool = false, acceptedAt now: UInt64,
        makeRequestID: @escaping () -> String
    ) {
        self.settings = settings
        self.peerAddress = peerAddress
        self.peerIsTrustedProxy = peerIsTrustedProxy
        self.makeRequestID = makeRequestID
        setDeadline(.request, now: now)
    }

    var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    /// Idle between requests: a keep-alive connection that has written its last response
    /// and holds no byte of a next request. Closing it loses nothing (RFC 9112 §9.6), so
    /// it is what the server closes first to make room. Its `deadline` is then the idle
    /// timeout after its last response: the earliest deadline is the longest idle.
    var isIdle: Bool {
        guard case .readingHead = state, deadlineKind == .idle else { return false }
        return !writing && !closeAfterWrite && !shuttingDown && inboundStart == inbound.count
    }

    // MARK: Events

    /// Bytes read from the peer.
    mutating func received(_ bytes: UnsafeRawBufferPointer, now: UInt64) -> ConnectionAction {
        switch state {
        case .closed: return .none
        case .lingering: return .none
        default: break
        }
        if inboundStart == inbound.count {
            inbound.removeAll(keepingCapacity: true)
            inboundStart = 0
        } else if inboundStart > 0 {
            // Keep only the unparsed tail (a partial pipelined request), so the buffer cannot grow without bound.
            inbound.removeSubrange(0..<inboundStart)
            inboundStart = 0
        }
        inbound.append(contentsOf: bytes)
        return drive(now: now)
    }

    /// The peer closed its side, or reading or writing failed: nothing more can be said.
    mutating func peerClosed() -> ConnectionAction {
        close()
    }

    /// Everything handed over with `.sendContinue` and `.respond` is written, the last
    /// `written` bytes by this flush.
    mutating func writeFinished(written: Int, now: UInt64) -> ConnectionAction {
        guard writing else { return .none }
        writing = false
        if var span = slowSend {
            if inboundStart < inbound.count {
                // A pipelined request is waiting: its response continues the slow span.
                span.written += UInt64(written)
                slowSend = span
                if written > 0 { lastSendProgress = now }
            } else {
                slowSend = nil
            }
        }
        if closeAfterWrite, case .readingHead = state {
            state = .lingering
            setDeadline(.linger, now: now)
            return .linger
        }
        if deadlineKind == .write { setDeadline(.idle, now: now) }
        return drive(now: now)
    }

    /// The socket took only `written` bytes (maybe none) of what is queued; wait until it is writable.
    mutating func writeBlocked(written: Int, now: UInt64) -> ConnectionAction {
        if var span = slowSend {
            span.written += UInt64(written)
            slowSend = span
            if written > 0 { lastSendProgress = now }
        } else {
            // What went before filled the socket's buffer: the rate counts from here.
            slowSend = (since: now, written: 0)
            lastSendProgress = now
        }
        setDeadline(.write, now: now)
        return .awaitWritable
    }

    /// The response to the request handed over with `.handle`.
    mutating func handlerFinished(_ response: consuming HTTPResponse, now: UInt64) -> ConnectionAction {
        guard case .awaitingHandler = state, let exchange = answering.take() else { return .none }
        return respond(response, to: exchange, now: now)
    }

    /// The clock reached `now`: acts on a passed deadline.
    mutating func tick(now: UInt64) -> ConnectionAction {
        guard now >= deadline else { return .none }
        switch deadlineKind {
        case .request:
            switch state {
            case .readingHead, .readingBody:
                return respondToInvalid(.requestTimeout, detail: "the request was not received in time", now: now)
            default:
                return close()
            }
        case .idle, .write, .linger:
            return close()
        }
    }

    /// The server is stopping: close now if no request is in progress, else let the
    /// current one finish and close after its response.
    mutating func shutdownRequested() -> ConnectionAction {
        shuttingDown = true
        if case .readingHead = state, inboundStart == inbound.count, !writing {
            return close()
        }
        return .none
    }

    // MARK: Reading

    /// Advances the connection as far as the buffered bytes allow.
    private mutating func drive(now: UInt64) -> ConnectionAction {
        while true {
            if writing { return .none }
            switch state {
            case .closed:
                return .none
            case .lingering:
                return .awaitReadable
            case .awaitingHandler:
                return .none
            case .readingHead:
                guard inboundStart < inbound.count else {
                    if shuttingDown { return close() }
                    return .awaitReadable
                }
                if deadlineKind != .request { setDeadline(.request, now: now) }
                let result = inbound.withUnsafeBufferPointer { buffer in
                    RequestHeadParser.parse(UnsafeBufferPointer(rebasing: buffer[inboundStart...]), limits: settings.limits)
                }
                switch result {
                case .incomplete:
                    return .awaitReadable
                case .invalid(let status, let reason, let refusal):
                    return respondToInvalid(status, detail: reason, refusal: refusal, now: now)
                case .complete(let head, let consumed):
                    inboundStart += consumed
                    if let action = begin(head, now: now) { return action }
                }
            case .readingBody(let exchange, let framing):
                return readBody(exchange, framing: framing, now: now) ?? .awaitReadable
            }
        }
    }

    /// Starts answering a parsed head: route it, then read its body or dispatch it.
    /// Returns an action when one must be performed before reading on.
    private mutating func begin(_ head: RequestHead, now: UInt64) -> ConnectionAction? {
        let sentID = head.headers["X-Request-ID"]
        let requestID = sentID.flatMap { RequestID.isAcceptable($0) ? $0 : nil } ?? makeRequestID()
        let clientAddress =
            peerIsTrustedProxy
            ? settings.trustedProxies.clientAddress(forwardedBy: peerAddress, headers: head.headers) : peerAddress
        let exchange = Exchange(
            head: head, requestID: requestID, startedAt: now, match: settings.router.match(head.method, path: head.path),
            clientAddress: clientAddress)
        body.removeAll(keepingCapacity: true)
        switch head.framing {
        case .none:
            return dispatch(exchange)
        case .contentLength, .chunked:
            var sendContinue = false
            if head.expectsContinue {
                if case .found = exchange.match {
                    // RFC 9110 §10.1.1: the client waits for this before sending the body.
                    sendContinue = inboundStart == inbound.count
                } else {
                    // The body is not wanted: answer now, without reading it, and close.
                    closeAfterWrite = true
                    return dispatch(exchange)
                }
            }
            chunkedDecoder = head.framing == .chunked ? ChunkedBodyDecoder(maxBodyBytes: settings.limits.maxBodyBytes) : nil
            state = .readingBody(exchange, framing: head.framing)
            guard sendContinue else { return nil }
            writing = true
            return .sendContinue
        }
    }

    /// Moves buffered body bytes into `body`; an action once the body is done or refused,
    /// nil while more is needed.
    private mutating func readBody(_ exchange: Exchange, framing: BodyFraming, now: UInt64) -> ConnectionAction? {
        switch framing {
        case .none:
            return dispatch(exchange)
        case .contentLength(let length):
            let take = min(length - body.count, inbound.count - inboundStart)
            body.append(contentsOf: inbound[inboundStart..<(inboundStart + take)])
            inboundStart += take
            guard body.count == length else { return nil }
            return dispatch(exchange)
        case .chunked:
            guard var decoder = chunkedDecoder else { return nil }
            let progress = inbound.withUnsafeBufferPointer { buffer in
                decoder.decode(UnsafeBufferPointer(rebasing: buffer[inboundStart...]), into: &body)
            }
            chunkedDecoder = decoder
            switch progress {
            case .incomplete(let consumed):
                inboundStart += consumed
                return nil
            case .complete(let consumed):
                inboundStart += consumed
                chunkedDecoder = nil
                return dispatch(exchange)
            case .invalid(let status, let reason):
                chunkedDecoder = nil
                return respondToInvalid(status, detail: reason, exchange: exchange, now: now)
            }
        }
    }

    /// Hands the complete request to the shell, which runs it through `RequestPipeline`.
    private mutating func dispatch(_ exchange: consuming Exchange) -> ConnectionAction {
        var pathParameters: [String: String] = [:]
        if case .found(_, let parameters, _, _) = exchange.match { pathParameters = parameters }
        let request = HTTPRequest(
            head: exchange.head, body: body, pathParameters: pathParameters, remoteAddress: exchange.clientAddress,
            requestID: exchange.requestID)
        body = []
        let match = exchange.match
        state = .awaitingHandler
        answering = exchange
        // The handler may take its time; the request deadline covered only the reading.
        deadline = .max
        return .handle(request, match)
    }

    // MARK: Writing

    /// Answers a request that could not be read (malformed, too large, too slow), then
    /// closes; `refusal` is the fair-use rule it breaks, when it breaks one.
    private mutating func respondToInvalid(
        _ status: HTTPStatus, detail: String, refusal: RefusalRule? = nil, exchange: Exchange? = nil, now: UInt64
    ) -> ConnectionAction {
        closeAfterWrite = true
        let response = HTTPError(status, detail: detail, refusal: refusal).problemResponse
        if let exchange {
            return respond(response, to: exchange, now: now)
        }
        return respond(
            response,
            to: Exchange(
                head: Self.unreadHead, requestID: makeRequestID(), startedAt: now, match: .notFound, clientAddress: peerAddress),
            unread: true, now: now)
    }

    /// The method logged for a request whose head could not be read.
    private static let unreadMethod = HTTPMethod(rawValue: "-")

    /// Stands for the head of a request that could not be read, in its exchange.
    private static let unreadHead = RequestHead(
        method: .get, target: "", path: "", query: QueryString(), version: .http1_1, headers: HTTPHeaders(), keepAlive: false)

    /// - Parameter unread: `exchange` stands for a request whose head could not be read:
    ///   logged with `-` for its method and path, counted under the route `unread`.
    private mutating func respond(
        _ response: consuming HTTPResponse, to exchange: Exchange, unread: Bool = false, now: UInt64
    ) -> ConnectionAction {
        let head = exchange.head
        if !head.keepAlive || shuttingDown { closeAfterWrite = true }
        let caching: CachePolicy
        let route: RouteLabel
        switch exchange.match {
        case .found(_, _, let policy, let pattern), .methodNotAllowed(_, let policy, let pattern):
            caching = policy
            route = .pattern(pattern)
        case .notFound:
            caching = .unspecified
            route = unread ? .unread : .unmatched
        }
        let context = ResponseEncoder.Context(
            method: head.method, requestHeaders: head.headers, requestID: exchange.requestID, closing: closeAfterWrite,
            echoKeepAlive: head.version == .http1_0 && !closeAfterWrite, caching: caching)
        state = .readingHead
        setDeadline(.idle, now: now)
        writing = true
        return .respond(
            response, context,
            log: AccessLogEntry(
                method: unread ? Self.unreadMethod : head.method, path: unread ? "-" : head.path, route: route,
                requestID: exchange.requestID, startedAt: exchange.startedAt, remote: exchange.clientAddress))
    }

    private mutating func close() -> ConnectionAction {
        if case .closed = state { return .none }
        state = .closed
        return .close
    }

    private mutating func setDeadline(_ kind: DeadlineKind, now: UInt64) {
        deadlineKind = kind
        switch kind {
        case .idle: deadline = Self.adding(settings.idleTimeout, to: now)
        case .request: deadline = Self.adding(settings.requestTimeout, to: now)
        case .linger: deadline = Self.adding(settings.lingerTimeout, to: now)
        case .write: deadline = sendDeadline()
        }
    }

    /// The earlier of: the send timeout after the last progress, and the send timeout
    /// after the peer stopped keeping up plus the time the minimum rate allows for what it
    /// has taken since.
    private func sendDeadline() -> UInt64 {
        let stalled = Self.adding(settings.sendTimeout, to: lastSendProgress)
        guard let span = slowSend, settings.minimumSendRate > 0 else { return stalled }
        let rate = settings.minimumSendRate
        let (whole, overflow) = (span.written / rate).multipliedReportingOverflow(by: 1_000_000_000)
        let earned = overflow ? UInt64.max : Self.adding(span.written % rate * 1_000_000_000 / rate, to: whole)
        return min(stalled, Self.adding(earned, to: Self.adding(settings.sendTimeout, to: span.since)))
    }

    private static func adding(_ duration: UInt64, to time: UInt64) -> UInt64 {
        duration > UInt64.max - time ? .max : time + duration
    }
}
