import Glibc
import Testing
import TestSupport

@testable import HTTPServer

/// The send timeout: a client that stops reading a response, or reads it at a trickle,
/// is closed instead of holding its connection (and the response) for ever. Driven with
/// the fake clock and send buffer of `InMemoryConnection`, and once over a real socket.
@Suite struct SlowReaderTests {
    static let bufferBytes = 4096

    static func connection(minimumSendRate: Int = 1024, bufferBytes: Int = bufferBytes) -> InMemoryConnection {
        var configuration = HTTPServerConfiguration()
        configuration.minimumSendRate = minimumSendRate
        return InMemoryConnection(
            router: TestServer.router(signals: TestServer.Signals()), configuration: configuration, sendBufferBytes: bufferBytes)
    }

    /// Reads `bytesPerSecond` each second until the server closes or `limit` seconds pass;
    /// returns the second at which it closed (nil: still open) and everything read.
    static func trickle(_ connection: InMemoryConnection, bytesPerSecond: Int, limit: Int) -> (closedAt: Int?, read: [UInt8]) {
        var read: [UInt8] = []
        for second in 1...limit {
            read += connection.read(bytesPerSecond)
            _ = connection.advance(by: .seconds(1))
            if connection.isClosed { return (second, read) }
        }
        return (nil, read)
    }

    @Test func aClientThatReadsNothingIsClosedOneSendTimeoutAfterTheWriteBlocked() {
        let connection = Self.connection()
        _ = connection.send("GET /huge HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(connection.read(Int.max).count == Self.bufferBytes)
        // The read above let the write on: the 30 s count from there.
        _ = connection.advance(by: .nanoseconds(29_999_999_999))
        #expect(!connection.isClosed)
        _ = connection.advance(by: .nanoseconds(1))
        #expect(connection.isClosed)
    }

    @Test func aClientThatTricklesIsClosedOnceBelowTheMinimumRate() {
        // 16 bytes a second: progress every second, so only the rate can close it. After
        // t seconds it has read 16 t bytes, earning 30 s + 16 t / 1024 s: closed at t = 31.
        let connection = Self.connection()
        _ = connection.send("GET /huge HTTP/1.1\r\nHost: t\r\n\r\n")
        let (closedAt, read) = Self.trickle(connection, bytesPerSecond: 16, limit: 120)
        #expect(closedAt == 31)
        #expect(read.count == 31 * 16)
    }

    @Test func withoutAMinimumRateATrickleIsNeverClosed() {
        let connection = Self.connection(minimumSendRate: 0)
        _ = connection.send("GET /huge HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(Self.trickle(connection, bytesPerSecond: 16, limit: 300).closedAt == nil)
    }

    @Test func aClientAboveTheMinimumRateGetsTheWholeResponse() throws {
        // /big (a few KiB) at 1,100 bytes a second through a 512-byte buffer: slow, but fast enough.
        let connection = Self.connection(bufferBytes: 512)
        _ = connection.send("GET /big HTTP/1.1\r\nHost: t\r\n\r\n")
        var (closedAt, read) = Self.trickle(connection, bytesPerSecond: 1_100, limit: 20)
        #expect(closedAt == nil)
        let response = try #require(try RawHTTPClient.Response.take(from: &read))
        #expect(response.status == 200)
        #expect(response.body == TestServer.bigBody)
        #expect(read.isEmpty)
    }

    @Test func pipelinedRequestsDoNotRestartTheRateCount() {
        // Forty small responses through a 64-byte buffer, read at 16 bytes a second: each
        // response blocks on its own, and if each restarted the count (and its grace) the
        // client would be served at 16 bytes a second for ever.
        let connection = Self.connection(bufferBytes: 64)
        _ = connection.send(String(repeating: "GET /hello HTTP/1.1\r\nHost: t\r\n\r\n", count: 40))
        let (closedAt, read) = Self.trickle(connection, bytesPerSecond: 16, limit: 300)
        #expect(closedAt == 31)
        #expect(read.count == 31 * 16)
    }

    @Test func aRealSocketThatStopsReadingIsClosedAfterTheSendTimeout() throws {
        try TestServer.with({ $0.sendTimeout = .milliseconds(300) }) { server in
            let client = try server.client(timeout: .seconds(3))
            // 12 MiB: more than loopback's socket buffers take, so a write blocks.
            try client.send(String(repeating: "GET /huge HTTP/1.1\r\nHost: t\r\n\r\n", count: 3))
            // Long against the 300 ms timeout: on a loaded machine (the suite runs its
            // tests in parallel) the server may take a second or more just to fill the
            // socket buffers, and only then does its send stall and the timeout start.
            usleep(4_000_000)
            // Reads what the buffers held, then the close; a server that kept the
            // connection would send on, and the read would time out after 3 s.
            #expect(try client.waitForClose())
            #expect(client.unreadBytes.count < 3 * TestServer.hugeBody.count)
        }
    }
}
