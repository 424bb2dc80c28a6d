import Dispatch
import Glibc
import HTTPServer
import Logging
import Synchronization
import TestSupport

/// A real `HTTPServer` on 127.0.0.1, port 0, with a small router, shut down after `body`.
struct TestServer {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A body larger than the gzip threshold, with a strong ETag.
    static let bigBody: [UInt8] = Array(("{\"items\":[" + (0..<300).map { "\"item-\($0)\"" }.joined(separator: ",") + "]}").utf8)

    /// A response far larger than a socket buffer, so writes are partial and wait for EPOLLOUT.
    static let hugeBody: [UInt8] = (0..<(4 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }

    /// Signalled by `/gate`'s handler when it starts, so a test knows a request is in flight.
    final class Signals: Sendable {
        let slowStarted = Mutex(0)
        /// `/gated` answers counted as they finish.
        let gatedFinished = Mutex(0)
        /// `/gated` answers only once this is signalled (or after 30 s).
        let gate = DispatchSemaphore(value: 0)
        /// The responders of `/later` requests, held until a test answers them.
        let held = Mutex<[HTTPResponder]>([])
    }

    static func router(signals: Signals) -> Router {
        var router = Router()
        router.add(.get, "/hello", caching: .unspecified, .immediate { _ in .json(Array(#"{"message":"hello"}"#.utf8)) })
        router.add(.delete, "/hello", caching: .unspecified, .immediate { _ in .empty(.noContent) })
        router.add(.get, "/big", caching: .unspecified, .immediate { _ in .json(bigBody, etag: HTTPResponse.strongETag(for: bigBody)) })
        router.add(.get, "/huge", caching: .unspecified, .immediate { _ in
            HTTPResponse(headers: HTTPHeaders([("Content-Type", "application/octet-stream")]), body: hugeBody)
        })
        router.add(.get, "/items/{id}", caching: .unspecified, .immediate { request in
            .json(Array("{\"id\":\"\(request.pathParameters["id"] ?? "")\",\"path\":\"\(request.path)\"}".utf8))
        })
        router.add(.get, "/echo-query", caching: .unspecified, .immediate { request in
            let text = request.queryItems.map { "\($0.name)=\($0.value)" }.joined(separator: "|")
            return HTTPResponse(headers: HTTPHeaders([("Content-Type", "text/plain")]), body: Array(text.utf8))
        })
        router.add(.get, "/remote", caching: .unspecified, .immediate { request in
            HTTPResponse(headers: HTTPHeaders([("Content-Type", "text/plain")]), body: Array(request.remoteAddress.utf8))
        })
        router.add(.get, "/request-id", caching: .unspecified, .immediate { request in
            HTTPResponse(headers: HTTPHeaders([("Content-Type", "text/plain")]), body: Array(request.requestID.utf8))
        })
        router.add(.post, "/echo", caching: .unspecified, .immediate { request in
            HTTPResponse(headers: HTTPHeaders([("Content-Type", "application/octet-stream")]), body: request.body)
        })
        router.add(.get, "/slow", caching: .unspecified, .blocking { _ in
            signals.slowStarted.withLock { $0 += 1 }
            usleep(400_000)
            return .json(Array(#"{"slow":true}"#.utf8))
        })
        router.add(.get, "/gated", caching: .unspecified, .blocking { _ in
            signals.slowStarted.withLock { $0 += 1 }
            _ = signals.gate.wait(timeout: .now() + 30)
            signals.gatedFinished.withLock { $0 += 1 }
            return .json(Array(#"{"gated":true}"#.utf8))
        })
        router.add(.get, "/later/{id}", caching: .unspecified, .deferred { request, responder in
            let id = request.pathParameters["id"] ?? ""
            if id == "dropped" { return }
            if id == "failing" { return responder.respond { throw HTTPError(.conflict, detail: "later, and wrong") } }
            signals.held.withLock { $0.append(responder) }
        })
        router.add(.get, "/handed", caching: .unspecified, .handOff { _, responder in
            DispatchQueue.global().async { responder.respond { .json(Array(#"{"handed":true}"#.utf8)) } }
        })
        router.add(.get, "/conflict", caching: .unspecified, .immediate { _ in
            throw HTTPError(.conflict, detail: "The \"thing\" already exists.")
        })
        router.add(.get, "/crash", caching: .unspecified, .blocking { _ in
            throw Failure(description: "secret internal detail")
        })
        return router
    }

    let server: HTTPServer
    let signals: Signals
    var port: Int { server.port }

    init(_ configure: (inout HTTPServerConfiguration) -> Void = { _ in }) throws {
        var configuration = HTTPServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.workerThreads = 4
        configure(&configuration)
        // What the executable does for itself: a client that hangs up must not kill the test process.
        signal(SIGPIPE, SIG_IGN)
        signals = Signals()
        server = HTTPServer(
            configuration: configuration, router: Self.router(signals: signals),
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        try server.start()
    }

    /// Starts a server, runs `body` with it, and always shuts it down.
    static func with(_ configure: (inout HTTPServerConfiguration) -> Void = { _ in }, _ body: (TestServer) throws -> Void) throws {
        let server = try TestServer(configure)
        defer { server.server.shutdown() }
        try body(server)
    }

    /// A new connection, from `localAddress` (e.g. 127.0.0.2, another client) when given.
    func client(from localAddress: String? = nil, timeout: Duration = .seconds(5)) throws -> RawHTTPClient {
        try RawHTTPClient(port: port, from: localAddress, timeout: timeout)
    }
}
