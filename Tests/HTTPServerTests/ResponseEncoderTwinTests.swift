import Basics
import Gzip
import Testing
import TestSupport

@testable import HTTPServer

/// `ResponseEncoder.encode` writes the head in one pass over the handler's fields; its twin
/// here edits a copy of the fields step by step, as the rules read (drop the server's own,
/// add or extend `Vary`, set `ETag`, answer 304, answer a `Range`, gzip, `Cache-Control`, CORS), then writes them all. Both
/// must give the same bytes for any response and request.
@Suite struct ResponseEncoderTwinTests {
    @Test func onePassEncodingMatchesTheStepByStepTwin() {
        var random = SeededGenerator(seed: 19)
        for _ in 0..<4000 {
            let response = Self.randomResponse(using: &random)
            let context = ResponseEncoder.Context(
                method: [.get, .head, .post, .options].randomElement(using: &random)!,
                requestHeaders: Self.randomRequestHeaders(using: &random),
                requestID: "req-\(random.next() % 1000)", closing: Bool.random(using: &random),
                echoKeepAlive: Bool.random(using: &random),
                caching: [CachePolicy.unspecified, .shared(maxAge: 300), .shared(maxAge: 60), .noStore].randomElement(using: &random)!)
            let date = Array("Mon, 23 Nov 2026 23:59:59 GMT".utf8)
            let fast = ResponseEncoder.encode(response, context: context, serverName: "past-nyc", date: date)
            let twin = Self.twinEncode(response, context: context, serverName: "past-nyc", date: date)
            #expect(fast.status == twin.status)
            #expect(String(decoding: fast.head, as: UTF8.self) == String(decoding: twin.head, as: UTF8.self))
            #expect(fast.body == twin.body)
        }
    }

    /// A name in one of three spellings: as registered, lowercased, uppercased.
    private static func spelled(_ name: String, using random: inout SeededGenerator) -> String {
        switch random.next() % 3 {
        case 0: name
        case 1: name.lowercased()
        default: name.uppercased()
        }
    }

    private static func randomResponse(using random: inout SeededGenerator) -> HTTPResponse {
        let pool: [(String, [String])] = [
            ("Content-Type", [HTTPResponse.jsonContentType, "text/plain", "image/png", "application/problem+json", "application/yaml"]),
            ("Vary", ["Origin", "accept-encoding", "*", "Origin, Accept-Encoding", "Authorization"]),
            ("ETag", ["\"handler\""]),
            ("Content-Encoding", ["br"]),
            ("Content-Length", ["5"]), ("Date", ["yesterday"]), ("Server", ["other"]), ("Connection", ["upgrade"]),
            ("X-Request-ID", ["theirs"]), ("Transfer-Encoding", ["chunked"]), ("X-Content-Type-Options", ["sniff"]),
            ("Access-Control-Allow-Origin", ["https://example.com"]), ("Access-Control-Expose-Headers", ["X-Other"]),
            ("Cache-Control", ["no-store"]), ("Location", ["/x"]), ("Retry-After", ["3"]),
        ]
        var headers = HTTPHeaders()
        for _ in 0..<(random.next() % 5) {
            let (name, values) = pool.randomElement(using: &random)!
            headers.add(spelled(name, using: &random), values.randomElement(using: &random)!)
        }
        let bodySize = [0, 40, 1024, 1025, 3000].randomElement(using: &random)!
        let body = (0..<bodySize).map { UInt8(ascii: "a") + UInt8($0 % 7) }
        let status = [HTTPStatus.ok, .ok, .ok, .created, .noContent, .partialContent, .notFound].randomElement(using: &random)!
        let etag = [nil, "\"abc\"", "W/\"weak\""].randomElement(using: &random)!
        var response = HTTPResponse(status: status, headers: headers, body: body, etag: etag)
        response.acceptsRanges = Bool.random(using: &random)
        return response
    }

    private static func randomRequestHeaders(using random: inout SeededGenerator) -> HTTPHeaders {
        let pool: [(String, [String])] = [
            ("Host", ["localhost"]),
            ("Accept-Encoding", ["gzip", "gzip;q=0", "*", "br", "identity, x-gzip"]),
            ("If-None-Match", ["\"abc\"", "\"abc-gzip\"", "\"zzz\"", "*", "W/\"weak\""]),
            ("Origin", ["https://example.com"]),
            ("Accept", ["*/*"]),
            ("Authorization", ["Bearer abc"]),
            ("Access-Control-Request-Method", ["GET"]),
            ("Range", ["bytes=0-9", "bytes=-5", "bytes=1000-", "bytes=5000-", "bytes=0-1,3-4", "items=0-1"]),
            ("If-Range", ["\"abc\"", "\"abc-gzip\""]),
        ]
        var headers = HTTPHeaders()
        for _ in 0..<(random.next() % 5) {
            let (name, values) = pool.randomElement(using: &random)!
            headers.add(spelled(name, using: &random), values.randomElement(using: &random)!)
        }
        return headers
    }

    private static let serverOwned = [
        "Content-Length", "Connection", "Date", "Server", "Transfer-Encoding", "X-Request-ID", "X-Content-Type-Options",
    ]

    private static func twinEncode(
        _ response: HTTPResponse, context: ResponseEncoder.Context, serverName: String, date: [UInt8]
    ) -> ResponseEncoder.Encoded {
        var status = response.status
        var headers = response.headers
        var body = response.body
        for name in serverOwned { headers.remove(name) }

        let compressible = isCompressible(headers)
        var wantsGzip = compressible && body.count > ResponseEncoder.minimumGzipBytes
            && AcceptEncoding.allowsGzip(context.requestHeaders)
        if compressible {
            if let vary = headers["Vary"] {
                let elements = vary.split(separator: ",").map { $0.trimmingSpacesAndTabs() }
                if !elements.contains(where: { $0.caseInsensitiveEquals("Accept-Encoding") || $0 == "*" }) {
                    headers.set("Vary", vary + ", Accept-Encoding")
                }
            } else {
                headers.add("Vary", "Accept-Encoding")
            }
        }
        if let etag = response.etag, status == .ok, context.method == .get || context.method == .head {
            let conditional = context.requestHeaders.contains("If-None-Match")
            let gzipTag = EntityTag.gzipVariant(of: etag)
            headers.set("ETag", wantsGzip ? gzipTag : etag)
            if conditional, EntityTag.ifNoneMatch(context.requestHeaders, matchesAnyOf: [etag, gzipTag]) {
                status = .notModified
                headers.remove("Content-Type")
                body = []
            }
        }
        var contentRange: String?
        if response.acceptsRanges, status == .ok, context.method == .get || context.method == .head {
            let length = body.count
            switch RangeSelection.evaluate(context.requestHeaders, etag: response.etag, length: length) {
            case .whole:
                break
            case .partial(let range):
                status = .partialContent
                body = Array(body[range])
                wantsGzip = false
                if let etag = response.etag { headers.set("ETag", etag) }
                contentRange = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(length)"
            case .unsatisfiable:
                status = .rangeNotSatisfiable
                body = HTTPError(.rangeNotSatisfiable, detail: "the range starts past the end of the \(length) bytes of this resource")
                    .problemResponse.body
                wantsGzip = false
                headers.remove("ETag")
                headers.set("Content-Type", HTTPResponse.problemContentType)
                contentRange = "bytes */\(length)"
            }
        }
        if response.acceptsRanges { headers.add("Accept-Ranges", "bytes") }
        if let contentRange { headers.add("Content-Range", contentRange) }
        if wantsGzip, status != .notModified, let compressed = try? Gzip.compress(body) {
            body = compressed
            headers.set("Content-Encoding", "gzip")
        }
        // RFC 9111 as `CachePolicy` states it: a token means no-store, except on a preflight.
        let preflight = context.method == .options && context.requestHeaders.contains("Access-Control-Request-Method")
        if !preflight {
            if context.requestHeaders.contains("Authorization") || context.caching == .noStore {
                headers.set("Cache-Control", "no-store")
            } else if context.caching != .unspecified, !headers.contains("Cache-Control"),
                context.method == .get || context.method == .head, [200, 206, 304].contains(status.code)
            {
                headers.set("Cache-Control", context.caching == .shared(maxAge: 60) ? "public, max-age=60" : "public, max-age=300")
            }
        }
        if context.requestHeaders.contains("Origin") {
            headers.set("Access-Control-Allow-Origin", "*")
            headers.set("Access-Control-Expose-Headers", ResponseEncoder.exposedHeaders)
        }

        var text = "HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\nDate: \(String(decoding: date, as: UTF8.self))\r\nServer: \(serverName)"
        text += "\r\nX-Content-Type-Options: nosniff"
        for (name, value) in headers { text += "\r\n\(name): \(value)" }
        text += "\r\nX-Request-ID: \(context.requestID)"
        if status.code >= 200 && status != .noContent && status != .notModified { text += "\r\nContent-Length: \(body.count)" }
        if context.closing {
            text += "\r\nConnection: close"
        } else if context.echoKeepAlive {
            text += "\r\nConnection: keep-alive"
        }
        text += "\r\n\r\n"
        let sendsBody = context.method != .head && status != .notModified && status != .noContent
        return ResponseEncoder.Encoded(head: Array(text.utf8), body: sendsBody ? body : [], status: status)
    }

    private static func isCompressible(_ headers: HTTPHeaders) -> Bool {
        guard !headers.contains("Content-Encoding"), let type = headers["Content-Type"] else { return false }
        return type.contains("json") || type.contains("yaml") || type.hasPrefix("text/")
    }
}
