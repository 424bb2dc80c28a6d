import Foundation
import HTTPServer
import Logging
import Testing
import TestSupport

@testable import PastNYC

/// The logfmt lines of `StandardErrorLogHandler`, read back from a file.
@Suite struct LogLineFormatTests {
    /// A `LogLineWriter` on a temporary file, and the lines written to it.
    final class CapturedLines {
        let writer: LogLineWriter
        private let directory: TemporaryDirectory
        private let descriptor: Int32

        init() throws {
            directory = try TemporaryDirectory()
            descriptor = open(directory.file("log"), O_WRONLY | O_CREAT | O_APPEND, 0o600)
            try #require(descriptor >= 0)
            writer = LogLineWriter(descriptor: descriptor)
        }

        deinit {
            close(descriptor)
        }

        func logger(metadata: Logger.Metadata = [:]) -> Logger {
            var handler = StandardErrorLogHandler(logLevel: .info, writer: writer)
            handler.metadata = metadata
            return Logger(label: "test", factory: { _ in handler })
        }

        /// Flushes the writer and returns every line written, each without its leading
        /// `ts=…` field, which must be RFC 3339 UTC with milliseconds.
        func lines() throws -> [String] {
            writer.flush()
            let text = try String(contentsOfFile: directory.file("log"), encoding: .utf8)
            return text.split(separator: "\n").map { line in
                let timestamp = line.prefix(27)
                let pattern = Array("ts=dddd-dd-ddTdd:dd:dd.dddZ".utf8)
                let matches = zip(timestamp.utf8, pattern).allSatisfy { byte, expected in
                    expected == UInt8(ascii: "d") ? (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) : byte == expected
                }
                #expect(matches, "\(line)")
                return String(line.dropFirst(27))
            }
        }
    }

    @Test func sortsKeysAndLeavesPlainValuesUnquoted() throws {
        let captured = try CapturedLines()
        captured.logger().info(
            "request",
            metadata: [
                "method": "GET", "path": "/nearby", "status": .stringConvertible(200), "bytes": "1234",
                "duration_ms": "0.123", "request_id": "r-1", "remote": "127.0.0.1", "B": "upper", "a_1": "x", "a": "y",
            ])
        captured.logger().notice("listening")
        #expect(
            try captured.lines() == [
                " level=info msg=request B=upper a=y a_1=x bytes=1234 duration_ms=0.123 method=GET path=/nearby"
                    + " remote=127.0.0.1 request_id=r-1 status=200",
                " level=notice msg=listening",
            ])
    }

    @Test func quotesAndEscapesWhatLogfmtReadersWouldMisread() throws {
        let captured = try CapturedLines()
        captured.logger().warning(
            "catalog ready",
            metadata: [
                "empty": "", "space": "a b", "quote": "say \"hi\"", "equals": "a=b", "backslash": #"a\b"#,
                "controls": "a\tb\nc\rd\u{1}e", "unicode": "caf\u{E9}", "delete": "a\u{7F}b",
                "list": ["x", .stringConvertible(1)], "dictionary": ["k": "v"],
            ])
        #expect(
            try captured.lines() == [
                #" level=warning msg="catalog ready" backslash="a\\b" controls="a\tb\nc\rd"# + "\u{1}"
                    + #"e" delete=a"# + "\u{7F}" + #"b dictionary="[\"k\": \"v\"]" empty="" equals="a=b""#
                    + #" list="[\"x\", \"1\"]" quote="say \"hi\"" space="a b" unicode=café"#
            ])
    }

    @Test func eventMetadataOverridesTheHandlersOwn() throws {
        let captured = try CapturedLines()
        captured.logger(metadata: ["zone": "a", "path": "handler"]).error("failed", metadata: ["path": "event", "b": "1"])
        captured.logger(metadata: ["zone": "a"]).error("failed")
        #expect(try captured.lines() == [" level=error msg=failed b=1 path=event zone=a", " level=error msg=failed zone=a"])
    }

    /// Far more than one batch (64 KiB), while the writer's timer and full batches
    /// flush concurrently: every line arrives, once, in order.
    @Test func keepsEveryLineInOrderAcrossBatches() throws {
        let captured = try CapturedLines()
        let logger = captured.logger()
        let padding = String(repeating: "x", count: 100)
        for number in 0..<3000 {
            logger.info("line", metadata: ["number": "\(number)", "padding": .string(padding)])
            if number % 1000 == 999 { captured.writer.flush() }
        }
        let lines = try captured.lines()
        #expect(lines == (0..<3000).map { " level=info msg=line number=\($0) padding=\(padding)" })
    }

    /// The access log line of a real request: its fields in order, and never the query
    /// string or a header value.
    @Test func accessLogLineHasNoQueryOrHeaders() throws {
        let captured = try CapturedLines()
        var router = Router()
        router.add(.get, "/echo", caching: .unspecified, .immediate { _ in HTTPResponse(body: Array("hello".utf8)) })
        var configuration = HTTPServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        let server = HTTPServer(configuration: configuration, router: router, logger: captured.logger())
        try server.start()
        defer { server.shutdown() }
        let client = try RawHTTPClient(port: server.port)
        try client.send(
            "GET /echo?token=secret HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer hunter2\r\nX-Request-ID: r-1\r\n\r\n")
        #expect(try client.readResponse().status == 200)

        let lines = try captured.lines()
        try #require(lines.count == 2)
        #expect(lines[0] == " level=notice msg=listening host=127.0.0.1 port=\(server.port)")
        let fields = lines[1].split(separator: " ")
        #expect(fields.map { $0.split(separator: "=")[0] } == [
            "level", "msg", "bytes", "duration_ms", "method", "path", "remote", "request_id", "status",
        ])
        #expect(fields.filter { !$0.hasPrefix("duration_ms=") } == [
            "level=info", "msg=request", "bytes=5", "method=GET", "path=/echo", "remote=127.0.0.1", "request_id=r-1",
            "status=200",
        ])
        #expect(!lines[1].contains("secret") && !lines[1].contains("token") && !lines[1].contains("hunter2"))
    }
}
