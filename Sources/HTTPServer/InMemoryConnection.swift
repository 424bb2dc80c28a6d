import Logging

/// A connection without a socket, for tests (in the spirit of HummingbirdTesting's
/// router mode): bytes in, bytes out, through the same `ConnectionStateMachine`,
/// `RequestPipeline` and `ResponseEncoder` as a connection of the running server, so
/// the answers are the server's, byte for byte (but for the `Date` value). Its clock
/// is fake and moves only when told, so timeouts are tested without waiting; every
/// write completes at once, and `.blocking` handlers run on the caller's thread.
///
/// Not `Sendable`: one test owns it.
public final class InMemoryConnection {
    private var machine: ConnectionStateMachine
    private let logger: Logger
    private let serverName: String
    private let dateCache = HTTPDateCache()
    private var output: [UInt8] = []

    /// Nanoseconds on the fake monotonic clock since the connection was accepted.
    public private(set) var now: UInt64 = 0
    /// The server closed the connection.
    public private(set) var isClosed = false
    /// The server shut its write side after a closing response and now discards what it reads.
    public private(set) var isLingering = false

    public init(
        router: Router, configuration: HTTPServerConfiguration = HTTPServerConfiguration(), remoteAddress: String = "127.0.0.1",
        logger: Logger = Logger(label: "in-memory-connection", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        var requestIDs = RequestIDGenerator()
        machine = ConnectionStateMachine(
            settings: ConnectionSettings(configuration: configuration, router: router), remoteAddress: remoteAddress,
            acceptedAt: 0, makeRequestID: { requestIDs.next() })
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

    /// The peer hangs up.
    public func close() {
        _ = perform(machine.peerClosed())
    }

    private func perform(_ first: ConnectionAction) -> [UInt8] {
        var action = first
        while !isClosed {
            switch action {
            case .none, .awaitReadable, .awaitWritable:
                return takeOutput()
            case .sendContinue:
                output += ResponseEncoder.continueResponse
                action = machine.writeFinished(now: now)
            case .respond(let response, let context, _):
                let encoded = ResponseEncoder.encode(response, context: context, serverName: serverName, date: dateCache.current())
                output += encoded.head
                output += encoded.body
                action = machine.writeFinished(now: now)
            case .handle(let request, let match):
                let response = RequestPipeline.response(to: request, match: match, logger: logger)
                action = machine.handlerFinished(response, now: now)
            case .linger:
                isLingering = true
                return takeOutput()
            case .close:
                isClosed = true
            }
        }
        return takeOutput()
    }

    private func takeOutput() -> [UInt8] {
        defer { output = [] }
        return output
    }
}
