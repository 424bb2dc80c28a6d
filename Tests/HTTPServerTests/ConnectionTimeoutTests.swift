import Testing
import TestSupport

@testable import HTTPServer

/// Every connection deadline, driven through the state machine with the fake clock of
/// `InMemoryConnection`: no sleeps, no real timers, exact to the nanosecond.
@Suite struct ConnectionTimeoutTests {
    static let hello = "GET /hello HTTP/1.1\r\nHost: t\r\n\r\n"

    /// The defaults the server runs with: 10 s for a request, 30 s idle.
    static func connection() -> InMemoryConnection {
        InMemoryConnection(router: TestServer.router(signals: TestServer.Signals()))
    }

    static func response(_ bytes: [UInt8]) throws -> RawHTTPClient.Response {
        var bytes = bytes
        let response = try #require(try RawHTTPClient.Response.take(from: &bytes))
        #expect(bytes.isEmpty)
        return response
    }

    static func expect408(_ bytes: [UInt8], _ connection: InMemoryConnection) throws {
        let response = try response(bytes)
        #expect(response.status == 408)
        #expect(response.header("Connection") == "close")
        #expect(response.header("Content-Type") == "application/problem+json")
        #expect(connection.isLingering)
    }

    @Test func aConnectionThatNeverSendsAByteGets408TenSecondsAfterTheAccept() throws {
        let connection = Self.connection()
        #expect(connection.advance(by: .nanoseconds(9_999_999_999)).isEmpty)
        #expect(!connection.isLingering)
        try Self.expect408(connection.advance(by: .nanoseconds(1)), connection)
    }

    @Test func theFirstHeadCountsFromTheAcceptNotFromItsFirstByte() throws {
        let connection = Self.connection()
        #expect(connection.advance(by: .seconds(6)).isEmpty)
        #expect(connection.send("GET /hello HTTP/1.1\r\n").isEmpty)
        #expect(connection.advance(by: .milliseconds(3_999)).isEmpty)
        try Self.expect408(connection.advance(by: .milliseconds(1)), connection)
    }

    @Test func aLaterTrickledHeadTimesOutTenSecondsAfterItsFirstByte() throws {
        let connection = Self.connection()
        #expect(try Self.response(connection.send(Self.hello)).status == 200)
        #expect(connection.advance(by: .seconds(5)).isEmpty)
        // One byte a second from t = 5 s: a deadline that each byte pushed back would never
        // fire, and the idle timeout would only at 30 s.
        for (index, byte) in "GET /hello HTTP/1.1\r\nX-Slow: abc".utf8.prefix(10).enumerated() {
            #expect(connection.send([byte]).isEmpty)
            let answer = connection.advance(by: .seconds(1))
            if index < 9 {
                #expect(answer.isEmpty)
            } else {
                try Self.expect408(answer, connection)
            }
        }
    }

    @Test func aSlowBodyGets408() throws {
        let connection = Self.connection()
        #expect(connection.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\nhello").isEmpty)
        #expect(connection.advance(by: .milliseconds(9_999)).isEmpty)
        try Self.expect408(connection.advance(by: .milliseconds(1)), connection)
    }

    @Test func anIdleKeepAliveConnectionHasTheLongerIdleTimeout() throws {
        let connection = Self.connection()
        #expect(connection.advance(by: .seconds(9)).isEmpty)
        #expect(try Self.response(connection.send(Self.hello)).status == 200)
        // Past the 10 s request timeout, still open: between requests the idle timeout rules.
        #expect(connection.advance(by: .seconds(29)).isEmpty)
        #expect(!connection.isClosed && !connection.isLingering)
        #expect(try Self.response(connection.send(Self.hello)).status == 200)
        #expect(connection.advance(by: .nanoseconds(29_999_999_999)).isEmpty)
        #expect(!connection.isClosed)
        // Closed quietly: no 408 for a connection between requests.
        #expect(connection.advance(by: .nanoseconds(1)).isEmpty)
        #expect(connection.isClosed)
    }

    @Test func theLingeringCloseEndsAfterOneSecond() throws {
        let connection = Self.connection()
        let response = try Self.response(connection.send("GET /hello HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"))
        #expect(response.header("Connection") == "close")
        #expect(connection.isLingering)
        // Whatever else the peer sends is read and dropped.
        #expect(connection.send(Self.hello).isEmpty)
        #expect(connection.advance(by: .milliseconds(999)).isEmpty)
        #expect(!connection.isClosed)
        _ = connection.advance(by: .milliseconds(1))
        #expect(connection.isClosed)
    }

    @Test func configuredTimeoutsAreTheOnesUsed() throws {
        var configuration = HTTPServerConfiguration()
        configuration.headReadTimeout = .milliseconds(300)
        configuration.idleTimeout = .seconds(2)
        let connection = InMemoryConnection(router: TestServer.router(signals: TestServer.Signals()), configuration: configuration)
        #expect(try Self.response(connection.send(Self.hello)).status == 200)
        #expect(connection.advance(by: .milliseconds(1_999)).isEmpty)
        #expect(connection.send("GET /hel").isEmpty)
        #expect(connection.advance(by: .milliseconds(299)).isEmpty)
        try Self.expect408(connection.advance(by: .milliseconds(1)), connection)
    }
}
