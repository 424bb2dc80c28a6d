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
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\nDate: D\r\nServer: s\r\n"))
        #expect(text.contains("\r\nContent-Length: 2\r\n"))
        #expect(!text.contains("999"))
        #expect(!text.contains("upgrade"))
        #expect(text.hasSuffix("\r\n\r\n{}"))
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
