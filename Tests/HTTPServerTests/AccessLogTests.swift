import Logging
import Synchronization
import Testing
import TestSupport

@testable import HTTPServer

@Suite struct AccessLogTests {
    /// Keeps every log record, for assertions.
    final class Records: Sendable {
        let entries = Mutex<[(message: String, metadata: Logger.Metadata)]>([])
    }

    struct CapturingHandler: LogHandler {
        let records: Records
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            records.entries.withLock { $0.append((event.message.description, event.metadata ?? [:])) }
        }
    }

    @Test func oneLinePerRequestWithoutQueryOrHeaders() throws {
        let records = Records()
        var configuration = HTTPServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        let server = HTTPServer(
            configuration: configuration, router: TestServer.router(signals: TestServer.Signals()),
            logger: Logger(label: "test", factory: { _ in CapturingHandler(records: records) }))
        try server.start()
        defer { server.shutdown() }
        let client = try RawHTTPClient(port: server.port)
        try client.send("GET /echo-query?token=secret HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer hunter2\r\nX-Request-ID: r-1\r\n\r\n")
        #expect(try client.readResponse().status == 200)

        let lines = records.entries.withLock { $0.filter { $0.message == "request" } }
        try #require(lines.count == 1)
        let metadata = lines[0].metadata
        #expect(metadata["method"] == "GET")
        #expect(metadata["path"] == "/echo-query")
        #expect(metadata["status"]?.description == "200")
        #expect(metadata["request_id"] == "r-1")
        #expect(metadata["remote"] == "127.0.0.1")
        #expect(metadata["bytes"]?.description == "12")
        #expect(metadata["duration_ms"] != nil)
        let everything = records.entries.withLock { $0.map { "\($0.message) \($0.metadata)" }.joined() }
        #expect(!everything.contains("secret"))
        #expect(!everything.contains("hunter2"))
    }

    /// Behind a trusted proxy the log's `remote` is the client it forwarded for.
    @Test func remoteIsTheForwardedClientBehindATrustedProxy() throws {
        let records = Records()
        var configuration = HTTPServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.trustedProxies = TrustedProxies([IPAddressRange("127.0.0.1")!])
        let server = HTTPServer(
            configuration: configuration, router: TestServer.router(signals: TestServer.Signals()),
            logger: Logger(label: "test", factory: { _ in CapturingHandler(records: records) }))
        try server.start()
        defer { server.shutdown() }
        let client = try RawHTTPClient(port: server.port)
        #expect(try client.request("GET", "/hello", headers: [("X-Forwarded-For", "::ffff:198.51.100.4")]).status == 200)
        let lines = records.entries.withLock { $0.filter { $0.message == "request" } }
        try #require(lines.count == 1)
        #expect(lines[0].metadata["remote"] == "198.51.100.4")
    }
}
