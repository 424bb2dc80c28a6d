import Testing

@testable import HTTPServer

@Suite struct RequestHeadParserTests {
    static let valid = "GET /photos/1?lat=40.7&name=a+b%21 HTTP/1.1\r\nHost: example.com\r\nAccept: */*\r\nX-Dup: 1\r\nX-Dup: 2\r\n\r\n"

    @Test func parsesAValidRequest() throws {
        guard case .complete(let head, let consumed) = RequestHeadParser.parse(Array(Self.valid.utf8)) else {
            Issue.record("not complete")
            return
        }
        #expect(consumed == Self.valid.utf8.count)
        #expect(head.method == .get)
        #expect(head.target == "/photos/1?lat=40.7&name=a+b%21")
        #expect(head.path == "/photos/1")
        #expect(head.queryItems.map(\.name) == ["lat", "name"])
        #expect(head.queryItems.map(\.value) == ["40.7", "a b!"])
        #expect(head.version == .http1_1)
        #expect(head.headers.values("x-dup") == ["1", "2"])
        #expect(head.headers.map(\.name) == ["Host", "Accept", "X-Dup", "X-Dup"])
        #expect(head.framing == .none)
        #expect(head.keepAlive)
    }

    @Test func everyTruncatedPrefixIsIncomplete() {
        let bytes = Array(Self.valid.utf8)
        for length in 0..<bytes.count {
            let result = RequestHeadParser.parse(Array(bytes[..<length]))
            guard case .incomplete = result else {
                Issue.record("prefix of \(length) bytes gave \(result)")
                continue
            }
        }
    }

    @Test func consumesOnlyTheFirstOfPipelinedRequests() {
        let one = "GET /a HTTP/1.1\r\nHost: x\r\n\r\n"
        guard case .complete(let head, let consumed) = RequestHeadParser.parse(Array((one + one).utf8)) else {
            Issue.record("not complete")
            return
        }
        #expect(head.path == "/a")
        #expect(consumed == one.utf8.count)
    }

    struct Row: CustomTestStringConvertible, Sendable {
        let name: String
        let request: String
        let status: Int
        var testDescription: String { name }
    }

    static let invalid: [Row] = [
        Row(name: "Transfer-Encoding with Content-Length", request: "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n", status: 400),
        Row(name: "conflicting Content-Length", request: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n", status: 400),
        Row(name: "identical duplicate Content-Length", request: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\n", status: 400),
        Row(name: "Content-Length list", request: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3, 3\r\n\r\n", status: 400),
        Row(name: "Content-Length with sign", request: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: +3\r\n\r\n", status: 400),
        Row(name: "Content-Length negative", request: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", status: 400),
        Row(name: "Content-Length hex", request: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0x10\r\n\r\n", status: 400),
        Row(name: "Content-Length empty", request: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: \r\n\r\n", status: 400),
        Row(name: "Content-Length overflowing", request: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n", status: 400),
        Row(name: "obs-fold", request: "GET / HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n  folded\r\n\r\n", status: 400),
        Row(name: "whitespace before first field", request: "GET / HTTP/1.1\r\n Host: x\r\n\r\n", status: 400),
        Row(name: "bare CR in value", request: "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n", status: 400),
        Row(name: "bare LF in value", request: "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\nb\r\n\r\n", status: 400),
        Row(name: "bare LF line ending", request: "GET / HTTP/1.1\nHost: x\r\n\r\n", status: 400),
        Row(name: "NUL in value", request: "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\u{0}b\r\n\r\n", status: 400),
        Row(name: "DEL in value", request: "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\u{7F}b\r\n\r\n", status: 400),
        Row(name: "escape control in value", request: "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\u{1B}b\r\n\r\n", status: 400),
        Row(name: "space before colon", request: "GET / HTTP/1.1\r\nHost : x\r\n\r\n", status: 400),
        Row(name: "tab before colon", request: "GET / HTTP/1.1\r\nHost\t: x\r\n\r\n", status: 400),
        Row(name: "invalid name character", request: "GET / HTTP/1.1\r\nHost: x\r\nX(A): 1\r\n\r\n", status: 400),
        Row(name: "empty field name", request: "GET / HTTP/1.1\r\nHost: x\r\n: 1\r\n\r\n", status: 400),
        Row(name: "line without colon", request: "GET / HTTP/1.1\r\nHost: x\r\nnocolon\r\n\r\n", status: 400),
        Row(name: "invalid method character", request: "G(ET / HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        Row(name: "two spaces after method", request: "GET  / HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        Row(name: "HTTP/1.1 without Host", request: "GET / HTTP/1.1\r\nAccept: */*\r\n\r\n", status: 400),
        Row(name: "HTTP/1.1 with two Host", request: "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", status: 400),
        Row(name: "HTTP/1.0 with two Host", request: "GET / HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n", status: 400),
        Row(name: "chunked not last", request: "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, gzip\r\n\r\n", status: 400),
        Row(name: "chunked twice", request: "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n", status: 400),
        Row(name: "unknown transfer coding", request: "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: foo\r\n\r\n", status: 501),
        Row(name: "gzip then chunked", request: "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", status: 501),
        Row(name: "Transfer-Encoding in HTTP/1.0", request: "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", status: 400),
        Row(name: "HTTP/2.0", request: "GET / HTTP/2.0\r\nHost: x\r\n\r\n", status: 505),
        Row(name: "HTTP/1.2", request: "GET / HTTP/1.2\r\nHost: x\r\n\r\n", status: 505),
        Row(name: "HTTP/0.9 style", request: "GET / HTTP/0.9\r\nHost: x\r\n\r\n", status: 505),
        Row(name: "garbage version", request: "GET / HTTQ/1.1\r\nHost: x\r\n\r\n", status: 400),
        Row(name: "lowercase version", request: "GET / http/1.1\r\nHost: x\r\n\r\n", status: 400),
        Row(name: "long version", request: "GET / HTTP/1.10\r\nHost: x\r\n\r\n", status: 400),
        Row(name: "absolute-form", request: "GET http://x/ HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        Row(name: "asterisk-form", request: "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        Row(name: "invalid percent-escape in path", request: "GET /a%zz HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        Row(name: "truncated percent-escape in path", request: "GET /a%4 HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        Row(name: "encoded NUL in path", request: "GET /a%00 HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        Row(name: "invalid UTF-8 in path", request: "GET /a%FF HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        Row(name: "invalid percent-escape in query", request: "GET /a?b=%G1 HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        Row(name: "non-ASCII in target", request: "GET /caf\u{E9} HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        Row(name: "control in target", request: "GET /a\u{1}b HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        Row(name: "URI too long", request: "GET /" + String(repeating: "a", count: 8 * 1024) + " HTTP/1.1\r\nHost: x\r\n\r\n", status: 414),
        Row(name: "head too large", request: "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "b", count: 16 * 1024) + "\r\n\r\n", status: 431),
        Row(name: "body too large by Content-Length", request: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 65537\r\n\r\n", status: 413),
    ]

    @Test(arguments: invalid)
    func refusesMalformedRequests(_ row: Row) {
        let result = RequestHeadParser.parse(Array(row.request.utf8))
        guard case .invalid(let status, let reason) = result else {
            Issue.record("\(row.name): expected \(row.status), got \(result)")
            return
        }
        #expect(status.code == row.status, "\(reason)")
        #expect(!reason.isEmpty)
    }

    @Test func oversizedURIIsRefusedBeforeTheRequestLineEnds() {
        let partial = "GET /" + String(repeating: "a", count: 8 * 1024 + 1)
        guard case .invalid(let status, _) = RequestHeadParser.parse(Array(partial.utf8)) else {
            Issue.record("expected 414")
            return
        }
        #expect(status == .uriTooLong)
    }

    @Test func oversizedHeadIsRefusedBeforeItEnds() {
        let partial = "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "b", count: 17 * 1024)
        guard case .invalid(let status, _) = RequestHeadParser.parse(Array(partial.utf8)) else {
            Issue.record("expected 431")
            return
        }
        #expect(status == .requestHeaderFieldsTooLarge)
    }

    @Test(arguments: 0...255)
    func onlyTokenCharactersAreAcceptedInAFieldName(_ value: Int) {
        let byte = UInt8(value)
        let request = Array("GET / HTTP/1.1\r\nHost: x\r\nX".utf8) + [byte] + Array("Y: 1\r\n\r\n".utf8)
        let isToken = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        switch RequestHeadParser.parse(request) {
        case .complete(let head, _) where byte == UInt8(ascii: ":"):
            // The colon ends the name: "X" with the value "Y: 1".
            #expect(head.headers["X"] == "Y: 1")
        case .complete(let head, _):
            #expect(isToken, "byte \(value) was accepted")
            #expect(head.headers.count == 2)
        case .invalid(let status, _):
            #expect(!isToken, "byte \(value) was refused")
            #expect(status == .badRequest)
        case .incomplete:
            Issue.record("byte \(value) left the request incomplete")
        }
    }

    @Test(arguments: 0...255)
    func onlyTokenCharactersAreAcceptedInAMethod(_ value: Int) {
        let byte = UInt8(value)
        let request = [UInt8(ascii: "G"), byte] + Array("T / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        let isToken = HTTPToken.isToken(byte)
        switch RequestHeadParser.parse(request) {
        case .complete(let head, _):
            #expect(isToken, "byte \(value) was accepted")
            #expect(head.method.rawValue.utf8.count == 3)
        case .invalid(let status, _):
            #expect(!isToken, "byte \(value) was refused")
            #expect(status == .badRequest)
        case .incomplete:
            Issue.record("byte \(value) left the request incomplete")
        }
    }

    struct FramingRow: CustomTestStringConvertible, Sendable {
        let request: String
        let framing: BodyFraming
        let keepAlive: Bool
        let expectsContinue: Bool
        var testDescription: String { request.debugDescription }
    }

    static let framings: [FramingRow] = [
        FramingRow(request: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 12\r\n\r\n", framing: .contentLength(12), keepAlive: true, expectsContinue: false),
        FramingRow(request: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n", framing: .none, keepAlive: true, expectsContinue: false),
        FramingRow(request: "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: Chunked\r\n\r\n", framing: .chunked, keepAlive: true, expectsContinue: false),
        FramingRow(request: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n", framing: .contentLength(5), keepAlive: true, expectsContinue: true),
        FramingRow(request: "GET / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n\r\n", framing: .none, keepAlive: true, expectsContinue: false),
        FramingRow(request: "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", framing: .none, keepAlive: false, expectsContinue: false),
        FramingRow(request: "GET / HTTP/1.1\r\nHost: x\r\nConnection: Keep-Alive, Close\r\n\r\n", framing: .none, keepAlive: false, expectsContinue: false),
        FramingRow(request: "GET / HTTP/1.0\r\n\r\n", framing: .none, keepAlive: false, expectsContinue: false),
        FramingRow(request: "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", framing: .none, keepAlive: true, expectsContinue: false),
        FramingRow(request: "\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n", framing: .none, keepAlive: true, expectsContinue: false),
    ]

    @Test(arguments: framings)
    func decidesFramingAndPersistence(_ row: FramingRow) {
        guard case .complete(let head, let consumed) = RequestHeadParser.parse(Array(row.request.utf8)) else {
            Issue.record("not complete")
            return
        }
        #expect(consumed == row.request.utf8.count)
        #expect(head.framing == row.framing)
        #expect(head.keepAlive == row.keepAlive)
        #expect(head.expectsContinue == row.expectsContinue)
    }

    @Test func trimsOptionalWhitespaceAroundValues() {
        guard case .complete(let head, _) = RequestHeadParser.parse(Array("GET / HTTP/1.1\r\nHost:\t x \t\r\nX-Empty:\r\n\r\n".utf8)) else {
            Issue.record("not complete")
            return
        }
        #expect(head.headers["host"] == "x")
        #expect(head.headers["x-empty"] == "")
    }
}
