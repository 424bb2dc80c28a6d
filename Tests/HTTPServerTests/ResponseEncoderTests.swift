import Testing

@testable import HTTPServer

@Suite struct ResponseEncoderTests {
    @Test func problemBodyIsEscapedJSON() {
        let response = HTTPError(.badRequest, detail: "bad \"lat\"\n\u{1}").problemResponse
        #expect(String(decoding: response.body, as: UTF8.self)
            == #"{"type":"about:blank","title":"Bad Request","status":400,"detail":"bad \"lat\"\n\u0001"}"#)
        #expect(response.headers["Content-Type"] == "application/problem+json")
    }

    @Test func serverOwnedHeadersFromHandlersAreReplaced() {
        var response = HTTPResponse.json(Array("{}".utf8))
        response.headers.add("Content-Length", "999")
        response.headers.add("Connection", "upgrade")
        let context = ResponseEncoder.Context(
            method: .get, requestHeaders: HTTPHeaders(), requestID: "id-1", closing: false, echoKeepAlive: false, caching: .unspecified)
        let encoded = ResponseEncoder.encode(response, context: context, serverName: "s", date: Array("D".utf8))
        let text = String(decoding: encoded.head + encoded.body, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\nDate: D\r\nServer: s\r\nX-Content-Type-Options: nosniff\r\n"))
        #expect(text.contains("\r\nContent-Length: 2\r\n"))
        #expect(!text.contains("999"))
        #expect(!text.contains("upgrade"))
        #expect(text.hasSuffix("\r\n\r\n{}"))
    }

    /// Every answer, whatever its status, method or caching, says `nosniff` exactly once,
    /// a handler's own `X-Content-Type-Options` replaced.
    @Test(arguments: [
        ("200", HTTPMethod.get, [("Host", "h")]),
        ("304", .get, [("If-None-Match", "\"tag\"")]),
        ("206", .get, [("Range", "bytes=0-1")]),
        ("416", .get, [("Range", "bytes=900-")]),
        ("head", .head, [("Host", "h")]),
        ("preflight", .options, [("Origin", "https://example.com"), ("Access-Control-Request-Method", "GET")]),
        ("problem", .post, [("Authorization", "Bearer x")]),
    ])
    func everyAnswerSaysNoSniffOnce(_ label: String, _ method: HTTPMethod, _ requestFields: [(String, String)]) {
        var response = label == "problem" || label == "preflight"
            ? HTTPError(.notFound, detail: "no such thing").problemResponse
            : HTTPResponse(status: .ok, headers: HTTPHeaders([("Content-Type", "text/plain")]), body: Array("abcdef".utf8), etag: "\"tag\"")
        response.acceptsRanges = label == "206" || label == "416"
        if label == "preflight" { response = HTTPResponse(status: .noContent, headers: HTTPHeaders(), body: []) }
        response.headers.add("x-content-type-options", "sniff-away")
        let context = ResponseEncoder.Context(
            method: method, requestHeaders: HTTPHeaders(requestFields), requestID: "id", closing: label == "problem",
            echoKeepAlive: false, caching: .shared(maxAge: 60))
        let head = String(decoding: ResponseEncoder.encode(response, context: context, serverName: "s", date: Array("D".utf8)).head, as: UTF8.self)
        #expect(head.components(separatedBy: "\r\nX-Content-Type-Options: nosniff\r\n").count == 2, "\(label): \(head)")
        #expect(!head.contains("sniff-away"), "\(label)")
    }

    @Test(arguments: [
        ("\"abc\"", "\"abc-gzip\""),
        ("W/\"abc\"", "W/\"abc-gzip\""),
    ])
    func gzipVariantIsADistinctTag(_ tag: String, _ expected: String) {
        #expect(EntityTag.gzipVariant(of: tag) == expected)
    }

    @Test(arguments: [
        (#""a,b", W/"c""#, [#""a,b""#, #"W/"c""#]),
        (#"*"#, ["*"]),
        (#" "x" ,, "y""#, [#""x""#, #""y""#]),
    ])
    func ifNoneMatchListsSplitOutsideQuotesOnly(_ value: String, _ expected: [String]) {
        #expect(EntityTag.entityTags(in: value).map(String.init) == expected)
    }

    @Test func strongETagIsQuotedHexAndStable() {
        let tag = HTTPResponse.strongETag(for: Array("hello".utf8))
        #expect(tag == HTTPResponse.strongETag(for: Array("hello".utf8)))
        #expect(tag != HTTPResponse.strongETag(for: Array("hellp".utf8)))
        #expect(tag.utf8.count == 34)
        #expect(tag == "\"2cf24dba5fb0a30e26e83b2ac5b9e29e\"")
    }
}
