import Glibc
import HTTPServer
import Testing
import TestSupport

/// What happens on accept, over real sockets: the per-client connection cap (one more → 429),
/// the room kept under `maxConnections` by closing idle connections, the `503` when none
/// is idle, and the client address that a trusted proxy forwards. Other 127.0.0.x
/// addresses act as other clients.
@Suite struct ConnectionAdmissionTests {
    static let hello = "GET /hello HTTP/1.1\r\nHost: test\r\n\r\n"

    /// A connection that has been accepted and served once, so it is counted and idle.
    static func servedClient(_ server: TestServer, from address: String? = nil) throws -> RawHTTPClient {
        let client = try server.client(from: address)
        try client.send(hello)
        #expect(try client.readResponse().status == 200)
        return client
    }

    /// A refusal on accept: problem+json with its status, `Retry-After`, `Connection: close`,
    /// then the server closes.
    static func expectRefused(_ client: RawHTTPClient, status: Int) throws {
        let response = try client.readResponse()
        #expect(response.status == status)
        #expect(response.header("Content-Type") == "application/problem+json")
        #expect(response.header("Retry-After") == "1")
        #expect(response.header("Connection") == "close")
        #expect(try client.waitForClose())
    }

    @Test func oneConnectionPastTheClientCapIsRefusedAndOtherAddressesAreServed() throws {
        try TestServer.with({ $0.maxConnectionsPerClient = 3 }) { server in
            let held = try (0..<3).map { _ in try Self.servedClient(server, from: "127.0.0.2") }
            // Refused without a request being sent or read.
            try Self.expectRefused(try server.client(from: "127.0.0.2"), status: 429)
            let other = try Self.servedClient(server, from: "127.0.0.3")
            #expect(server.server.refusals.counts[.connectionsPerClient] == 1)
            // The held connections are served as before.
            for client in held + [other] {
                try client.send(Self.hello)
                #expect(try client.readResponse().status == 200)
            }
        }
    }

    @Test func aClosedConnectionFreesItsPlaceUnderTheClientCap() throws {
        try TestServer.with({ $0.maxConnectionsPerClient = 1 }) { server in
            do {
                let first = try Self.servedClient(server, from: "127.0.0.2")
                try Self.expectRefused(try server.client(from: "127.0.0.2"), status: 429)
                try first.send(Self.hello)
                #expect(try first.readResponse().status == 200)
            }
            // The server notices the close on its own time: ask until it has (each refusal is immediate).
            var served = false
            for _ in 0..<1_000 where !served {
                let next = try server.client(from: "127.0.0.2")
                try next.send(Self.hello)
                served = try next.readResponse().status == 200
            }
            #expect(served)
        }
    }

    @Test func aTrustedProxysConnectionsAreNotCountedAndItsClientIsForwarded() throws {
        try TestServer.with({
            $0.maxConnectionsPerClient = 2
            $0.trustedProxies = TrustedProxies([IPAddressRange("127.0.0.2")!])
        }) { server in
            let proxied = try (0..<4).map { _ in try Self.servedClient(server, from: "127.0.0.2") }
            for client in proxied {
                let response = try client.request("GET", "/remote", headers: [("X-Forwarded-For", "198.51.100.1, 203.0.113.9")])
                #expect(response.bodyText == "203.0.113.9")
            }
            // Not trusted: the header is not believed, and the cap holds.
            let direct = try Self.servedClient(server, from: "127.0.0.3")
            #expect(try direct.request("GET", "/remote", headers: [("X-Forwarded-For", "203.0.113.9")]).bodyText == "127.0.0.3")
        }
    }

    /// At 90 % of `maxConnections` (4 of 4 here) a new connection closes an idle one and is
    /// served; which one depends on the event loop that took it, so the test only counts them.
    @Test func nearTheCapAnIdleConnectionMakesRoom() throws {
        try TestServer.with({ $0.maxConnections = 4 }) { server in
            let idle = try (0..<3).map { _ in try Self.servedClient(server) }
            _ = try Self.servedClient(server)
            #expect(server.server.refusals.counts[.idleEvicted] == 1)
            // The evicted one was closed before the new connection was served.
            var closed = 0
            for client in idle {
                try client.send(Self.hello)
                do {
                    #expect(try client.readResponse().status == 200)
                } catch RawHTTPClient.ClientError.closedBeforeResponse {
                    closed += 1
                } catch RawHTTPClient.ClientError.systemCall(_, let code) where code == ECONNRESET || code == EPIPE {
                    closed += 1
                }
            }
            #expect(closed == 1)
        }
    }

    /// Full, and every connection busy: one more is answered 503 at once; once they are
    /// idle again, a new one is served.
    @Test func whenFullAndNoneIsIdleANewConnectionGets503() throws {
        try TestServer.with({ $0.maxConnections = 3 }) { server in
            let busy = try (0..<3).map { _ in try server.client() }
            for client in busy { try client.send("GET /gated HTTP/1.1\r\nHost: t\r\n\r\n") }
            let limit = ContinuousClock.now + .seconds(5)
            while server.signals.slowStarted.withLock({ $0 }) < 3, ContinuousClock.now < limit { sched_yield() }
            try #require(server.signals.slowStarted.withLock { $0 } == 3)

            try Self.expectRefused(try server.client(), status: 503)
            #expect(server.server.refusals.counts[.connectionsFull] == 1)

            for _ in busy { server.signals.gate.signal() }
            for client in busy { #expect(try client.readResponse().status == 200) }
            _ = try Self.servedClient(server)
            #expect(server.server.refusals.counts[.connectionsFull] == 1)
        }
    }

    @Test func twoAuthorizationHeadersAre400() throws {
        try TestServer.with { server in
            let response = try server.client().request(
                "GET", "/hello", headers: [("Authorization", "Bearer a"), ("Authorization", "Bearer b")])
            #expect(response.status == 400)
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(response.problemDetail.contains("Authorization"))
        }
    }
}
