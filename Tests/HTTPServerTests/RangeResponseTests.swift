import Testing
import TestSupport

@testable import HTTPServer

/// What the encoder makes of `Range` and `If-Range` on a route that serves byte ranges,
/// through the same pipeline as a socket (RFC 9110 §14, §13.2.2, §15.3.7, §15.5.17).
@Suite struct RangeResponseTests {
    /// JSON Lines larger than the gzip threshold, so gzip and ranges meet.
    static let body: [UInt8] = Array((0..<400).map { #"{"line":\#($0)}"# + "\n" }.joined().utf8)
    static let tag = HTTPResponse.strongETag(for: body)

    static func client() -> InMemoryHTTPClient {
        var router = Router()
        router.add(.get, "/ranged", caching: .shared(maxAge: 60), .immediate { _ in
            var response = HTTPResponse(headers: HTTPHeaders([("Content-Type", "application/x-ndjson")]), body: body, etag: tag)
            response.acceptsRanges = true
            return response
        })
        router.add(.get, "/whole", caching: .shared(maxAge: 60), .immediate { _ in
            HTTPResponse(headers: HTTPHeaders([("Content-Type", "application/x-ndjson")]), body: body, etag: tag)
        })
        router.add(.post, "/ranged", caching: .unspecified, .immediate { _ in
            var response = HTTPResponse(headers: HTTPHeaders([("Content-Type", "application/x-ndjson")]), body: body)
            response.acceptsRanges = true
            return response
        })
        return InMemoryHTTPClient(router: router)
    }

    @Test func aRangeIsThoseBytesOfTheIdentityBody() throws {
        let response = try Self.client().request("GET", "/ranged", headers: [("Range", "bytes=10-29"), ("Accept-Encoding", "gzip")])
        #expect(response.status == 206)
        #expect(response.body == Array(Self.body[10..<30]))
        #expect(response.header("Content-Range") == "bytes 10-29/\(Self.body.count)")
        #expect(response.header("Content-Length") == "20")
        #expect(response.header("Content-Encoding") == nil)
        #expect(response.header("ETag") == Self.tag)
        #expect(response.header("Vary") == "Accept-Encoding")
        #expect(response.header("Accept-Ranges") == "bytes")
        #expect(response.header("Content-Type") == "application/x-ndjson")
        #expect(response.header("Cache-Control") == "public, max-age=60")
    }

    @Test func wholeAnswersAnnounceRangesAndMayBeGzipped() throws {
        let client = Self.client()
        let plain = try client.request("GET", "/ranged")
        #expect(plain.status == 200)
        #expect(plain.body == Self.body)
        #expect(plain.header("Accept-Ranges") == "bytes")
        #expect(plain.header("Content-Range") == nil)
        let zipped = try client.request("GET", "/ranged", headers: [("Accept-Encoding", "gzip")])
        #expect(zipped.header("Content-Encoding") == "gzip")
        #expect(try gunzip(zipped.body) == Self.body)
        #expect(zipped.header("Accept-Ranges") == "bytes")
    }

    @Test func anUnsatisfiableRangeIs416WithTheLength() throws {
        let response = try Self.client().request("GET", "/ranged", headers: [("Range", "bytes=\(Self.body.count)-")])
        #expect(response.status == 416)
        #expect(response.header("Content-Range") == "bytes */\(Self.body.count)")
        #expect(response.header("Content-Type") == HTTPResponse.problemContentType)
        #expect(response.headerValues("Content-Type").count == 1)
        #expect(response.bodyText.contains(#""status":416"#))
        #expect(response.header("Cache-Control") == nil)
    }

    @Test func ifRangeWithTheCurrentTagResumesAndAnyOtherGetsTheWhole() throws {
        let client = Self.client()
        let resumed = try client.request("GET", "/ranged", headers: [("Range", "bytes=-5"), ("If-Range", Self.tag)])
        #expect(resumed.status == 206)
        #expect(resumed.body == Array(Self.body.suffix(5)))
        for validator in [#""stale""#, EntityTag.gzipVariant(of: Self.tag), "W/" + Self.tag, "Sun, 06 Nov 1994 08:49:37 GMT"] {
            let whole = try client.request(
                "GET", "/ranged", headers: [("Range", "bytes=-5"), ("If-Range", validator), ("Accept-Encoding", "gzip")])
            #expect(whole.status == 200, "If-Range: \(validator)")
            #expect(try gunzip(whole.body) == Self.body)
        }
    }

    /// RFC 9110 §13.2.2: `If-None-Match` is evaluated before `Range`.
    @Test func aMatchingIfNoneMatchIs304EvenWithARange() throws {
        let response = try Self.client().request(
            "GET", "/ranged", headers: [("Range", "bytes=0-3"), ("If-None-Match", Self.tag), ("If-Range", Self.tag)])
        #expect(response.status == 304)
        #expect(response.body.isEmpty)
        #expect(response.header("Content-Range") == nil)
    }

    @Test func headWithARangeIsTheGetWithoutItsBody() throws {
        let client = Self.client()
        let head = try client.request("HEAD", "/ranged", headers: [("Range", "bytes=5-9")])
        #expect(head.status == 206)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Length") == "5")
        #expect(head.header("Content-Range") == "bytes 5-9/\(Self.body.count)")
        let unsatisfiable = try client.request("HEAD", "/ranged", headers: [("Range", "bytes=-0")])
        #expect(unsatisfiable.status == 416)
        #expect(unsatisfiable.header("Content-Range") == "bytes */\(Self.body.count)")
    }

    @Test func routesThatDoNotOptInAndOtherMethodsIgnoreRange() throws {
        let client = Self.client()
        let whole = try client.request("GET", "/whole", headers: [("Range", "bytes=0-3")])
        #expect(whole.status == 200)
        #expect(whole.body == Self.body)
        #expect(whole.header("Accept-Ranges") == nil)
        let posted = try client.request("POST", "/ranged", headers: [("Range", "bytes=0-3")])
        #expect(posted.status == 200)
        #expect(posted.body == Self.body)
    }

    /// Any single range, from a seeded generator, is exactly those bytes; the ranges a
    /// resuming client asks for, in order, give back the whole body.
    @Test func randomRangesReassembleTheBody() throws {
        let client = Self.client()
        var random = SeededGenerator(seed: 7)
        let length = Self.body.count
        for _ in 0..<300 {
            let first = Int.random(in: 0..<length, using: &random)
            let last = Int.random(in: first..<(length + 20), using: &random)
            let value: String
            let expected: Range<Int>
            switch random.next() % 3 {
            case 0: (value, expected) = ("bytes=\(first)-\(last)", first..<min(last + 1, length))
            case 1: (value, expected) = ("bytes=\(first)-", first..<length)
            default: (value, expected) = ("bytes=-\(last + 1)", max(0, length - last - 1)..<length)
            }
            let response = try client.request("GET", "/ranged", headers: [("Range", value)])
            #expect(response.status == 206)
            #expect(response.body == Array(Self.body[expected]), "\(value)")
            #expect(response.header("Content-Range") == "bytes \(expected.lowerBound)-\(expected.upperBound - 1)/\(length)")
        }
        var reassembled: [UInt8] = []
        while reassembled.count < length {
            let size = Int.random(in: 1...700, using: &random)
            let response = try client.request(
                "GET", "/ranged", headers: [("Range", "bytes=\(reassembled.count)-\(reassembled.count + size - 1)"), ("If-Range", Self.tag)])
            #expect(response.status == 206)
            reassembled += response.body
        }
        #expect(reassembled == Self.body)
    }
}
