import Foundation
import Glibc
import Logging
import Testing
import TestSupport

@testable import HTTPServer

/// A body streamed from files (`StreamedBody`): the whole, a range, `HEAD`, `304` and
/// `416` through the pipeline as an in-memory body gets them, a body of many segments,
/// and over a real socket a file far larger than the socket's buffers (partial writes and
/// `EAGAIN`), keep-alive after it, and a file cut short closing the connection.
@Suite struct StreamedBodyTests {
    /// Files of the test's own, and a body of made bytes between them.
    final class Files: Sendable {
        let directory: TemporaryDirectory
        let small: String
        let large: String
        static let smallBytes: [UInt8] = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 7) }
        static let largeBytes: [UInt8] = (0..<(24 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 ^ ($0 >> 16)) }

        init() throws {
            directory = try TemporaryDirectory()
            small = directory.file("small.bin")
            large = directory.file("large.bin")
            try Data(Self.smallBytes).write(to: URL(fileURLWithPath: small))
            try Data(Self.largeBytes).write(to: URL(fileURLWithPath: large))
        }
    }

    /// Made bytes, a file's region, made bytes, the whole file again.
    struct Mixed: StreamedBody {
        let path: String
        static let head: [UInt8] = Array("HEAD-".utf8)
        static let middle: [UInt8] = Array("-MIDDLE-".utf8)
        static let fileOffset = 1000
        static let region = 5000

        var length: Int { Self.head.count + Self.region + Self.middle.count + Files.smallBytes.count }
        var segmentCount: Int { 4 }

        func segmentStart(_ index: Int) -> Int {
            [0, Self.head.count, Self.head.count + Self.region, Self.head.count + Self.region + Self.middle.count][index]
        }

        func segment(_ index: Int) -> StreamedSegment {
            [.bytes(Self.head), .file(path: path, offset: Self.fileOffset), .bytes(Self.middle), .file(path: path, offset: 0)][index]
        }

        static var expected: [UInt8] {
            head + Files.smallBytes[fileOffset..<(fileOffset + region)] + middle + Files.smallBytes
        }
    }

    static let tag = "\"streamed\""

    static func router(_ files: Files) -> Router {
        var router = Router()
        let headers = HTTPHeaders([("Content-Type", "application/octet-stream")])
        router.add(.get, "/small", caching: .shared(maxAge: 60), .immediate { _ in
            var response = HTTPResponse(headers: headers, etag: tag)
            response.streamedBody = FileBody(path: files.small, length: Files.smallBytes.count)
            response.acceptsRanges = true
            return response
        })
        router.add(.get, "/large", caching: .unspecified, .immediate { _ in
            var response = HTTPResponse(headers: headers)
            response.streamedBody = FileBody(path: files.large, length: Files.largeBytes.count)
            return response
        })
        router.add(.get, "/mixed", caching: .unspecified, .immediate { _ in
            var response = HTTPResponse(headers: headers, etag: tag)
            response.streamedBody = Mixed(path: files.small)
            response.acceptsRanges = true
            return response
        })
        router.add(.get, "/cut", caching: .unspecified, .immediate { _ in
            var response = HTTPResponse(headers: headers)
            response.streamedBody = FileBody(path: files.small, length: Files.smallBytes.count + 10)
            return response
        })
        router.add(.get, "/hello", caching: .unspecified, .immediate { _ in .json(Array("{}".utf8)) })
        return router
    }

    @Test func theWholeFileWithItsLengthAndNoGzip() throws {
        let files = try Files()
        let client = InMemoryHTTPClient(router: Self.router(files))
        let response = try client.request("GET", "/small", headers: [("Accept-Encoding", "gzip")])
        #expect(response.status == 200)
        #expect(response.body == Files.smallBytes)
        #expect(response.header("Content-Length") == "\(Files.smallBytes.count)")
        #expect(response.header("Content-Encoding") == nil)
        #expect(response.header("ETag") == Self.tag)
        #expect(response.header("Accept-Ranges") == "bytes")
    }

    @Test func headSaysTheLengthAndSendsNothing() throws {
        let client = InMemoryHTTPClient(router: Self.router(try Files()))
        let response = try client.request("HEAD", "/small")
        #expect(response.status == 200)
        #expect(response.header("Content-Length") == "\(Files.smallBytes.count)")
        #expect(client.unreadBytes.isEmpty)
        #expect(try client.request("GET", "/hello").status == 200, "the connection goes on after the head alone")
    }

    @Test func aMatchingTagIsA304WithoutABody() throws {
        let client = InMemoryHTTPClient(router: Self.router(try Files()))
        let response = try client.request("GET", "/small", headers: [("If-None-Match", Self.tag)])
        #expect(response.status == 304)
        #expect(response.body.isEmpty)
        #expect(try client.request("GET", "/hello").status == 200)
    }

    @Test(arguments: [(0, 0), (10, 29), (69_990, 69_999), (65_536, 69_999)])
    func aRangeIsThoseBytesOfTheFile(_ first: Int, _ last: Int) throws {
        let client = InMemoryHTTPClient(router: Self.router(try Files()))
        let response = try client.request("GET", "/small", headers: [("Range", "bytes=\(first)-\(last)")])
        #expect(response.status == 206)
        #expect(response.body == Array(Files.smallBytes[first...last]))
        #expect(response.header("Content-Range") == "bytes \(first)-\(last)/\(Files.smallBytes.count)")
    }

    @Test func aRangePastTheEndIsA416Problem() throws {
        let client = InMemoryHTTPClient(router: Self.router(try Files()))
        let response = try client.request("GET", "/small", headers: [("Range", "bytes=70000-")])
        #expect(response.status == 416)
        #expect(response.header("Content-Type") == "application/problem+json")
        #expect(response.header("Content-Range") == "bytes */\(Files.smallBytes.count)")
    }

    @Test func anIfRangeWithAnotherTagGetsTheWhole() throws {
        let client = InMemoryHTTPClient(router: Self.router(try Files()))
        let response = try client.request("GET", "/small", headers: [("Range", "bytes=5-9"), ("If-Range", "\"other\"")])
        #expect(response.status == 200)
        #expect(response.body == Files.smallBytes)
    }

    /// Every range of a body of made bytes and file regions is those bytes of the whole:
    /// starts and ends inside, at and across every segment's edge.
    @Test func everyRangeOfASegmentedBodyIsThoseBytes() throws {
        let files = try Files()
        let client = InMemoryHTTPClient(router: Self.router(files))
        let expected = Mixed.expected
        #expect(try client.request("GET", "/mixed").body == expected)
        let body = Mixed(path: files.small)
        let edges = (0..<body.segmentCount).flatMap { [body.segmentStart($0) - 1, body.segmentStart($0), body.segmentStart($0) + 1] }
            .filter { (0..<expected.count).contains($0) } + [expected.count - 1]
        for first in edges {
            for last in edges where last >= first {
                let response = try client.request("GET", "/mixed", headers: [("Range", "bytes=\(first)-\(last)")])
                #expect(response.body == Array(expected[first...last]), "bytes \(first)-\(last)")
            }
        }
    }

    static func server(_ files: Files) throws -> HTTPServer {
        var configuration = HTTPServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.workerThreads = 2
        signal(SIGPIPE, SIG_IGN)
        let server = HTTPServer(
            configuration: configuration, router: router(files), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        try server.start()
        return server
    }

    /// 24 MiB, far more than a socket takes at once: the loop sends until `EAGAIN`, waits
    /// for the socket to drain and goes on from where it stopped, while other
    /// connections are served; then the connection takes its next request.
    @Test func aFileLargerThanTheSocketsBuffersArrivesWholeAndTheConnectionGoesOn() throws {
        let files = try Files()
        let server = try Self.server(files)
        defer { server.shutdown() }
        let client = try RawHTTPClient(port: server.port, timeout: .seconds(20))
        try client.send("GET /large HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        // Another client is answered while the first does not read.
        #expect(try RawHTTPClient(port: server.port).request("GET", "/hello").status == 200)
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(response.body.count == Files.largeBytes.count)
        #expect(response.body == Files.largeBytes)
        #expect(try client.request("GET", "/mixed").body == Mixed.expected)
    }

    @Test func aFileShorterThanPromisedCutsTheConnection() throws {
        let files = try Files()
        let server = try Self.server(files)
        defer { server.shutdown() }
        let client = try RawHTTPClient(port: server.port)
        try client.send("GET /cut HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(throws: RawHTTPClient.ClientError.self) { try client.readResponse() }
    }
}
