import Logging

/// A connection without a socket, for tests (in the spirit of HummingbirdTesting's
/// router mode): bytes in, bytes out, through the same `ConnectionStateMachine`,
/// `RequestPipeline` and `ResponseEncoder` as a connection of the running server, so
/// the answers are the server's, byte for byte (but for the `Date` value). Its clock
/// is fake and moves only when told, so timeouts are tested without waiting. Every
/// write completes at once, unless the connection is made with a `sendBufferBytes`: then
/// the peer reads only when the test says so (`read(_:)`), as a slow reader does, and
/// writes block when that buffer is full. `.blocking` handlers run on the caller's thread.
///
/// Not `Sendable`: one test owns it.
public final class InMemoryConnection {
    private var machine: ConnectionStateMachine
    private let logger: Logger
    private let serverName: String
    private let dateCache = HTTPDateCache()
    /// What the server wrote and the peer has not read yet.
    private var output: [UInt8] = []
    /// What the server has queued and the socket has not taken yet (the buffer was full).
    private var unsent: [UInt8] = []
    /// The socket's send buffer; nil: unlimited, and the peer reads everything at once.
    private let sendBufferBytes: Int?

    /// Nanoseconds on the fake monotonic clock since the connection was accepted.
    public private(set) var now: UInt64 = 0
    /// The server closed the connection.
    public private(set) var isClosed = false
    /// The server shut its write side after a closing response and now discards what it reads.
    public private(set) var isLingering = false

    /// - Parameter remoteAddress: the TCP peer's address; when `configuration.trustedProxies`
    ///   holds it, each request's client address comes from its `X-Forwarded-For`, as on a socket.
    public init(
        router: Router, configuration: HTTPServerConfiguration = HTTPServerConfiguration(), remoteAddress: String = "127.0.0.1",
        logger: Logger = Logger(label: "in-memory-connection", factory: { _ in SwiftLogNoOpLogHandler() }),
        sendBufferBytes: Int? = nil
    ) {
        self.sendBufferBytes = sendBufferBytes
        var requestIDs = RequestIDGenerator()
        let peerIsTrustedProxy = IPAddress(remoteAddress).map { configuration.trustedProxies.contains($0) } ?? false
        machine = ConnectionStateMachine(
            settings: ConnectionSettings(configuration: configuration, router: router), peerAddress: remoteAddress,
            peerIsTrustedProxy: peerIsTrustedProxy, acceptedAt: 0, makeRequestID: { requestIDs.next() })
        self.logger = logger
        serverName = configuration.serverName
    }

    /// Delivers `bytes` as one read and returns what the server wrote in answer.
    public func send(_ bytes: [UInt8]) -> [UInt8] {
        guard !isClosed else { return [] }
        let action = bytes.withUnsafeBytes { machine.received($0, now: now) }
        return perform(action)
    }

    public func send(_ text: String) -> [UInt8] {
        send(Array(text.utf8))
    }

    /// Moves the fake clock on by `duration`, lets the deadlines act, and returns what the server wrote.
    public func advance(by duration: Duration) -> [UInt8] {
        now += duration.nanoseconds
        return perform(machine.tick(now: now))
    }

    /// The peer reads at most `count` bytes of what the server wrote (with a
    /// `sendBufferBytes`), which frees that much of the buffer for a blocked write.
    public func read(_ count: Int) -> [UInt8] {
        let taken = Array(output.prefix(count))
        output.removeFirst(taken.count)
        if !isClosed, !unsent.isEmpty, !taken.isEmpty { _ = perform(flush()) }
        return taken
    }

    /// The peer hangs up.
    public func close() {
        _ = perform(machine.peerClosed())
    }

    private func perform(_ first: consuming ConnectionAction) -> [UInt8] {
        var action = first
        while !isClosed {
            switch consume action {
            case .none, .awaitReadable, .awaitWritable:
                return takeOutput()
            case .sendContinue:
                unsent += ResponseEncoder.continueResponse
                action = flush()
            case .respond(let response, let context, _):
                let encoded = ResponseEncoder.encode(response, context: context, serverName: serverName, date: dateCache.current())
                unsent += encoded.head
                unsent += encoded.body
                if let part = encoded.streamed {
                    do {
                        unsent += try StreamedBodySender(part.body, range: part.range).readRest()
                    } catch {
                        // As on a socket: the head promised bytes that cannot be sent, so the connection is cut.
                        output += unsent
                        unsent = []
                        action = machine.peerClosed()
                        continue
                    }
                }
                action = flush()
            case .handle(let request, let match):
                let response = RequestPipeline.response(to: request, match: match, logger: logger)
                action = machine.handlerFinished(response, now: now)
            case .linger:
                isLingering = true
                return takeOutput()
            case .close:
                isClosed = true
                return takeOutput()
            }
        }
        return takeOutput()
    }

    /// Moves into the send buffer what fits, as a nonblocking `send` would.
    private func flush() -> ConnectionAction {
        let room = sendBufferBytes.map { max($0 - output.count, 0) } ?? unsent.count
        let written = min(room, unsent.count)
        output += unsent.prefix(written)
        unsent.removeFirst(written)
        return unsent.isEmpty ? machine.writeFinished(written: written, now: now) : machine.writeBlocked(written: written, now: now)
    }

    /// What the peer reads at once: everything, unless it reads only through `read(_:)`.
    private func takeOutput() -> [UInt8] {
        guard sendBufferBytes == nil else { return [] }
        defer { output = [] }
        return output
    }
}
