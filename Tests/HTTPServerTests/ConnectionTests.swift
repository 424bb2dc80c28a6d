import Dispatch
import Glibc
import HTTPServer
import Testing
import TestSupport

@testable import HTTPServer

@Suite struct ConnectionTests {
    static let hello = "GET /hello HTTP/1.1\r\nHost: test\r\n\r\n"

    @Test func keepAliveServesSeveralRequestsOnOneConnection() throws {
        try TestServer.with { server in
            let client = try server.client(timeout: .milliseconds(500))
            for _ in 0..<3 {
                try client.send(Self.hello)
                let response = try client.readResponse()
                #expect(response.status == 200)
                #expect(response.bodyText == #"{"message":"hello"}"#)
                #expect(response.header("Connection") == nil)
                #expect(response.header("Content-Type") == "application/json; charset=utf-8")
                #expect(response.header("Server") == "past-nyc")
                #expect(response.header("Date")?.hasSuffix(" GMT") == true)
            }
            #expect(try client.waitForClose() == false)
        }
    }

    @Test func pipelinedResponsesComeInRequestOrder() throws {
        try TestServer.with { server in
            let client = try server.client()
            try client.send(
                "GET /items/1 HTTP/1.1\r\nHost: t\r\n\r\nGET /slow HTTP/1.1\r\nHost: t\r\n\r\nGET /items/3 HTTP/1.1\r\nHost: t\r\n\r\n")
            let first = try client.readResponse()
            let second = try client.readResponse()
            let third = try client.readResponse()
            #expect(first.bodyText.contains(#""id":"1""#))
            #expect(second.bodyText == #"{"slow":true}"#)
            #expect(third.bodyText.contains(#""id":"3""#))
        }
    }

    @Test func largePipelinedResponsesSurvivePartialWrites() throws {
        try TestServer.with { server in
            // A generous read timeout: it only guards against a hang, and 12 MiB through a
            // debug build on a loaded machine can pause longer than the default 5 s.
            let client = try server.client(timeout: .seconds(60))
            try client.send(String(repeating: "GET /huge HTTP/1.1\r\nHost: t\r\n\r\n", count: 3) + Self.hello)
            for _ in 0..<3 {
                let response = try client.readResponse()
                #expect(response.status == 200)
                #expect(response.body == TestServer.hugeBody)
            }
            #expect(try client.readResponse().bodyText == #"{"message":"hello"}"#)
        }
    }

    @Test func manyPipelinedRequestsSplitAtArbitraryBytes() throws {
        try TestServer.with { server in
            let client = try server.client()
            let requests = Array((0..<200).map { "GET /items/\($0) HTTP/1.1\r\nHost: t\r\n\r\n" }.joined().utf8)
            var offset = 0
            while offset < requests.count {
                let end = min(offset + 37, requests.count)
                try client.send(Array(requests[offset..<end]))
                offset = end
            }
            for index in 0..<200 {
                let response = try client.readResponse()
                #expect(response.bodyText.contains("\"id\":\"\(index)\""))
            }
        }
    }

    /// Responses made while the loop handles one batch of events wait for the batch's end
    /// (`EventLoop.holdsResponse(of:)`), at most `heldResponseLimit` at once. Three times
    /// that many connections each send three pipelined requests before any is read, so a
    /// batch can pass the limit, and a connection's second and third requests are answered
    /// while held responses are written: every response still reaches its own connection,
    /// in order. Fails when the held responses of a batch are not all written.
    @Test func heldResponsesReachTheirConnectionsInOrder() throws {
        try TestServer.with { server in
            let clients = try (0..<(3 * EventLoop.heldResponseLimit)).map { _ in try server.client() }
            for (number, client) in clients.enumerated() {
                try client.send((0..<3).map { "GET /items/\(number)-\($0) HTTP/1.1\r\nHost: t\r\n\r\n" }.joined())
            }
            for (number, client) in clients.enumerated() {
                for request in 0..<3 {
                    #expect(try client.readResponse().bodyText.contains("\"id\":\"\(number)-\(request)\""))
                }
            }
        }
    }

    /// HTTP/1.0 without keep-alive, and HTTP/1.1 with `Connection: close`.
    @Test(arguments: ["GET /hello HTTP/1.0\r\n\r\n", "GET /hello HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"])
    func aRequestThatDoesNotPersistIsAnsweredThenClosed(_ request: String) throws {
        try TestServer.with { server in
            let client = try server.client()
            try client.send(request)
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(response.header("Connection") == "close")
            #expect(try client.waitForClose())
        }
    }

    @Test func http10KeepAliveIsEchoed() throws {
        try TestServer.with { server in
            let client = try server.client()
            for _ in 0..<2 {
                try client.send("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
                let response = try client.readResponse()
                #expect(response.status == 200)
                #expect(response.header("Connection") == "keep-alive")
            }
        }
    }

    @Test func headHasGetHeadersAndNoBody() throws {
        try TestServer.with { server in
            let client = try server.client()
            try client.send("GET /big HTTP/1.1\r\nHost: t\r\n\r\nHEAD /big HTTP/1.1\r\nHost: t\r\n\r\nGET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
            let get = try client.readResponse()
            let head = try client.readResponse(forHead: true)
            // If HEAD had sent a body, it would be read as the next response and fail here.
            let after = try client.readResponse()
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.header("Content-Length") == String(get.body.count))
            #expect(head.header("ETag") == get.header("ETag"))
            #expect(after.bodyText == #"{"message":"hello"}"#)
        }
    }

    @Test func expectContinueGetsInterimResponseThenTheFinalOne() throws {
        try TestServer.with { server in
            let client = try server.client()
            try client.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
            let interim = try client.readResponse()
            #expect(interim.status == 100)
            try client.send("hello")
            let final = try client.readResponse()
            #expect(final.status == 200)
            #expect(final.bodyText == "hello")
        }
    }

    @Test func expectContinueIsNotSentWhenTheBodyIsRefused() throws {
        try TestServer.with { server in
            let client = try server.client()
            try client.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 100000\r\nExpect: 100-continue\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == 413)
            #expect(response.header("Connection") == "close")
            #expect(try client.waitForClose())
        }
    }

    @Test func chunkedBodyIsDecodedAndEchoed() throws {
        try TestServer.with { server in
            let client = try server.client()
            try client.send("POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n")
            try client.send("6\r\n world\r\n0\r\nX-Trailer: ignored\r\n\r\nGET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
            let echo = try client.readResponse()
            #expect(echo.status == 200)
            #expect(echo.bodyText == "hello world")
            #expect(try client.readResponse().status == 200)
        }
    }

    @Test func contentLengthBodyArrivingInPiecesIsEchoed() throws {
        try TestServer.with { server in
            let client = try server.client()
            try client.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 11\r\n\r\nhello")
            try client.send(" world")
            #expect(try client.readResponse().bodyText == "hello world")
        }
    }

    @Test func blockingHandlerDoesNotStallImmediateOnesOnOtherConnections() throws {
        try TestServer.with({ $0.workerThreads = 1 }) { server in
            let slow = try server.client()
            try slow.send("GET /gated HTTP/1.1\r\nHost: t\r\n\r\n")
            let fast = try server.client()
            while server.signals.slowStarted.withLock({ $0 }) == 0 {
                try fast.send(Self.hello)
                #expect(try fast.readResponse().status == 200)
            }
            // The only worker is held until the gate opens: these answers cannot have waited for it.
            for _ in 0..<3 {
                try fast.send(Self.hello)
                #expect(try fast.readResponse().status == 200)
            }
            #expect(server.signals.gatedFinished.withLock { $0 } == 0)
            server.signals.gate.signal()
            #expect(try slow.readResponse().bodyText == #"{"gated":true}"#)
        }
    }

    /// A `.deferred` handler answers later from another thread, and holds no worker
    /// meanwhile: with one worker, many requests wait at once and are all answered.
    @Test func deferredHandlersAnswerLaterWithoutHoldingAWorker() throws {
        try TestServer.with({ $0.workerThreads = 1 }) { server in
            let clients = try (0..<20).map { _ in try server.client() }
            for (index, client) in clients.enumerated() {
                try client.send("GET /later/\(index) HTTP/1.1\r\nHost: t\r\n\r\n")
            }
            while server.signals.held.withLock({ $0.count }) < clients.count { usleep(1_000) }
            // The one worker is free: a blocking handler still runs.
            let other = try server.client()
            try other.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(try other.readResponse().status == 200)
            let held = server.signals.held.withLock { $0 }
            DispatchQueue.concurrentPerform(iterations: held.count) { index in
                held[index].respond { .json(Array(#"{"answered":true}"#.utf8)) }
                held[index].respond { .json(Array(#"{"twice":true}"#.utf8)) }
            }
            for client in clients {
                let response = try client.readResponse()
                #expect(response.status == 200)
                #expect(response.bodyText == #"{"answered":true}"#, "only the first answer counts")
            }
        }
    }

    /// A `.handOff` handler runs on the event loop, not on a worker: with the one worker
    /// held by a gated request, a handed-off request is still answered.
    @Test func handOffHandlersNeedNoWorker() throws {
        try TestServer.with({ $0.workerThreads = 1 }) { server in
            let gated = try server.client()
            try gated.send("GET /gated HTTP/1.1\r\nHost: t\r\n\r\n")
            while server.signals.slowStarted.withLock({ $0 }) < 1 { usleep(1_000) }
            let client = try server.client()
            try client.send("GET /handed HTTP/1.1\r\nHost: t\r\n\r\n")
            let handed = try client.readResponse()
            #expect(handed.status == 200)
            #expect(handed.bodyText == #"{"handed":true}"#)
            #expect(server.signals.gatedFinished.withLock { $0 } == 0, "answered while the only worker was held")
            server.signals.gate.signal()
            #expect(try gated.readResponse().status == 200)
        }
    }

    @Test func aDeferredHandlersErrorIsItsProblemAndADroppedRequestA500() throws {
        try TestServer.with { server in
            let client = try server.client()
            try client.send("GET /later/failing HTTP/1.1\r\nHost: t\r\n\r\n")
            let failing = try client.readResponse()
            #expect(failing.status == 409)
            #expect(failing.bodyText.contains("later, and wrong"))
            try client.send("GET /later/dropped HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(try client.readResponse().status == 500)
        }
    }

    @Test func fiveHundredConcurrentConnectionsAreAllAnswered() throws {
        // All 500 come from 127.0.0.1: the per-client cap (256) would refuse the rest.
        try TestServer.with({ $0.maxConnectionsPerClient = 0 }) { server in
            let clients = try (0..<500).map { _ in try server.client() }
            for (index, client) in clients.enumerated() {
                try client.send("GET /items/\(index) HTTP/1.1\r\nHost: t\r\n\r\n")
            }
            for (index, client) in clients.enumerated() {
                let response = try client.readResponse()
                #expect(response.status == 200)
                #expect(response.bodyText.contains("\"id\":\"\(index)\""))
            }
        }
    }
}
