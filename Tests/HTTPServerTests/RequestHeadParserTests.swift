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
        #expect(head.query.items.map(\.name) == ["lat", "name"])
        #expect(head.query.items.map(\.value) == ["40.7", "a b!"])
        #expect(head.version == .http1_1)
        #expect(head.headers.values("x-dup") == ["1", "2"])
        #expect(head.headers.map(\.name) == ["Host", "Accept", "X-Dup", "X-Dup"])
        #expect(head.framing == .none)
        #expect(head.keepAlive)
    }

    @Test func everyTruncatedPrefixIsIncomplete() {
        Self.expectEveryProperPrefixIncomplete(of: Self.valid)
    }

    /// Fuzzing finding: after empty lines before the request line, a prefix ending in
    /// the CR of one more was refused (400) while the whole head was read.
    @Test func everyPrefixAfterEmptyLinesIsIncomplete() {
        Self.expectEveryProperPrefixIncomplete(of: "\r\n\r\n\r\n" + Self.valid)
    }

    /// The whole head is read, and every proper prefix of it is incomplete.
    private static func expectEveryProperPrefixIncomplete(of head: String) {
        let bytes = Array(head.utf8)
        guard case .complete = RequestHeadParser.parse(bytes) else {
            Issue.record("the whole head was not read")
            return
        }
        for length in 0..<bytes.count {
            let result = RequestHeadParser.parse(Array(bytes[..<length]))
            guard case .incomplete = result else {
                Issue.record("prefix of \(length) bytes gave \(result)")
                continue
            }
        }
    }

    /// Fuzzing finding: a 44-byte method was accepted when the head arrived whole but
    /// refused (400) while only the method had arrived, so the same request got two answers.
    @Test func aTooLongMethodIsRefusedWholeAndInPieces() {
        let head = Array((String(repeating: "Q", count: RequestHeadParser.maxMethodBytes + 1) + " / HTTP/1.1\r\nHost: x\r\n\r\n").utf8)
        for length in [RequestHeadParser.maxMethodBytes + 1, head.count] {
            guard case .invalid(.badRequest, _, _) = RequestHeadParser.parse(Array(head[..<length])) else {
                Issue.record("the first \(length) bytes were not refused")
                continue
            }
        }
        let longest = String(repeating: "Q", count: RequestHeadParser.maxMethodBytes) + " / HTTP/1.1\r\nHost: x\r\n\r\n"
        guard case .complete(let parsed, _) = RequestHeadParser.parse(Array(longest.utf8)) else {
            Issue.record("a method of the longest length was refused")
            return
        }
        #expect(parsed.method.rawValue.utf8.count == RequestHeadParser.maxMethodBytes)
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

    static let invalid: [RefusedInput] = [
        RefusedInput(name: "Transfer-Encoding with Content-Length", bytes: "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n", status: 400),
        RefusedInput(name: "conflicting Content-Length", bytes: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n", status: 400),
        RefusedInput(name: "identical duplicate Content-Length", bytes: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\n", status: 400),
        RefusedInput(name: "two Authorization fields", bytes: "GET / HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a\r\nAuthorization: Bearer b\r\n\r\n", status: 400),
        RefusedInput(name: "Authorization twice, names in two cases", bytes: "GET / HTTP/1.1\r\nHost: x\r\nauthorization: Bearer a\r\nAUTHORIZATION: Bearer a\r\n\r\n", status: 400),
        RefusedInput(name: "Content-Length list", bytes: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3, 3\r\n\r\n", status: 400),
        RefusedInput(name: "Content-Length with sign", bytes: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: +3\r\n\r\n", status: 400),
        RefusedInput(name: "Content-Length negative", bytes: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", status: 400),
        RefusedInput(name: "Content-Length hex", bytes: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0x10\r\n\r\n", status: 400),
        RefusedInput(name: "Content-Length empty", bytes: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: \r\n\r\n", status: 400),
        RefusedInput(name: "Content-Length overflowing", bytes: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n", status: 400),
        RefusedInput(name: "obs-fold", bytes: "GET / HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n  folded\r\n\r\n", status: 400),
        RefusedInput(name: "whitespace before first field", bytes: "GET / HTTP/1.1\r\n Host: x\r\n\r\n", status: 400),
        RefusedInput(name: "bare CR in value", bytes: "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n", status: 400),
        RefusedInput(name: "bare LF in value", bytes: "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\nb\r\n\r\n", status: 400),
        RefusedInput(name: "bare LF line ending", bytes: "GET / HTTP/1.1\nHost: x\r\n\r\n", status: 400),
        RefusedInput(name: "NUL in value", bytes: "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\u{0}b\r\n\r\n", status: 400),
        RefusedInput(name: "DEL in value", bytes: "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\u{7F}b\r\n\r\n", status: 400),
        RefusedInput(name: "escape control in value", bytes: "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\u{1B}b\r\n\r\n", status: 400),
        RefusedInput(name: "space before colon", bytes: "GET / HTTP/1.1\r\nHost : x\r\n\r\n", status: 400),
        RefusedInput(name: "tab before colon", bytes: "GET / HTTP/1.1\r\nHost\t: x\r\n\r\n", status: 400),
        RefusedInput(name: "invalid name character", bytes: "GET / HTTP/1.1\r\nHost: x\r\nX(A): 1\r\n\r\n", status: 400),
        RefusedInput(name: "empty field name", bytes: "GET / HTTP/1.1\r\nHost: x\r\n: 1\r\n\r\n", status: 400),
        RefusedInput(name: "line without colon", bytes: "GET / HTTP/1.1\r\nHost: x\r\nnocolon\r\n\r\n", status: 400),
        RefusedInput(name: "invalid method character", bytes: "G(ET / HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        RefusedInput(name: "two spaces after method", bytes: "GET  / HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        RefusedInput(name: "HTTP/1.1 without Host", bytes: "GET / HTTP/1.1\r\nAccept: */*\r\n\r\n", status: 400),
        RefusedInput(name: "HTTP/1.1 with two Host", bytes: "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", status: 400),
        RefusedInput(name: "HTTP/1.0 with two Host", bytes: "GET / HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n", status: 400),
        RefusedInput(name: "chunked not last", bytes: "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, gzip\r\n\r\n", status: 400),
        RefusedInput(name: "chunked twice", bytes: "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n", status: 400),
        RefusedInput(name: "unknown transfer coding", bytes: "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: foo\r\n\r\n", status: 501),
        RefusedInput(name: "gzip then chunked", bytes: "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", status: 501),
        RefusedInput(name: "Transfer-Encoding in HTTP/1.0", bytes: "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", status: 400),
        RefusedInput(name: "HTTP/2.0", bytes: "GET / HTTP/2.0\r\nHost: x\r\n\r\n", status: 505),
        RefusedInput(name: "HTTP/1.2", bytes: "GET / HTTP/1.2\r\nHost: x\r\n\r\n", status: 505),
        RefusedInput(name: "HTTP/0.9 style", bytes: "GET / HTTP/0.9\r\nHost: x\r\n\r\n", status: 505),
        RefusedInput(name: "garbage version", bytes: "GET / HTTQ/1.1\r\nHost: x\r\n\r\n", status: 400),
        RefusedInput(name: "lowercase version", bytes: "GET / http/1.1\r\nHost: x\r\n\r\n", status: 400),
        RefusedInput(name: "long version", bytes: "GET / HTTP/1.10\r\nHost: x\r\n\r\n", status: 400),
        RefusedInput(name: "absolute-form", bytes: "GET http://x/ HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        RefusedInput(name: "asterisk-form", bytes: "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        RefusedInput(name: "invalid percent-escape in path", bytes: "GET /a%zz HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        RefusedInput(name: "truncated percent-escape in path", bytes: "GET /a%4 HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        RefusedInput(name: "encoded NUL in path", bytes: "GET /a%00 HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        RefusedInput(name: "invalid UTF-8 in path", bytes: "GET /a%FF HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        RefusedInput(name: "invalid percent-escape in query", bytes: "GET /a?b=%G1 HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        RefusedInput(name: "non-ASCII in target", bytes: "GET /caf\u{E9} HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        RefusedInput(name: "control in target", bytes: "GET /a\u{1}b HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        RefusedInput(name: "URI too long", bytes: "GET /" + String(repeating: "a", count: 8 * 1024) + " HTTP/1.1\r\nHost: x\r\n\r\n", status: 414),
        RefusedInput(name: "head too large", bytes: "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "b", count: 16 * 1024) + "\r\n\r\n", status: 431),
        RefusedInput(name: "body too large by Content-Length", bytes: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 65537\r\n\r\n", status: 413),
    ]

    @Test(arguments: invalid)
    func refusesMalformedRequests(_ row: RefusedInput) {
        let result = RequestHeadParser.parse(Array(row.bytes.utf8))
        guard case .invalid(let status, let reason, _) = result else {
            Issue.record("\(row.name): expected \(row.status), got \(result)")
            return
        }
        #expect(status.code == row.status, "\(reason)")
        #expect(!reason.isEmpty)
    }

    @Test func oversizedURIIsRefusedBeforeTheRequestLineEnds() {
        let partial = "GET /" + String(repeating: "a", count: 8 * 1024 + 1)
        guard case .invalid(let status, _, _) = RequestHeadParser.parse(Array(partial.utf8)) else {
            Issue.record("expected 414")
            return
        }
        #expect(status == .uriTooLong)
    }

    @Test func oversizedHeadIsRefusedBeforeItEnds() {
        let partial = "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "b", count: 17 * 1024)
        guard case .invalid(let status, _, _) = RequestHeadParser.parse(Array(partial.utf8)) else {
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
        case .invalid(let status, _, _):
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
        case .invalid(let status, _, _):
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
