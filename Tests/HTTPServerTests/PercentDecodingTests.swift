import Testing

@testable import HTTPServer

@Suite struct PercentDecodingTests {
    struct Row: CustomTestStringConvertible, Sendable {
        let name: String
        let bytes: [UInt8]
        let plusIsSpace: Bool
        /// nil: the input must be refused.
        let decoded: String?
        var testDescription: String { name }

        init(_ name: String, _ text: String, plusIsSpace: Bool = true, _ decoded: String?) {
            self.init(name, Array(text.utf8), plusIsSpace: plusIsSpace, decoded)
        }

        init(_ name: String, _ bytes: [UInt8], plusIsSpace: Bool = true, _ decoded: String?) {
            self.name = name
            self.bytes = bytes
            self.plusIsSpace = plusIsSpace
            self.decoded = decoded
        }
    }

    static let rows: [Row] = [
        // Nothing to decode: the bytes become the string as they are.
        Row("empty", "", ""),
        Row("plain ASCII", "40.712345", "40.712345"),
        Row("plain path", "/photos/1", plusIsSpace: false, "/photos/1"),
        Row("plus kept in a path", "/a+b", plusIsSpace: false, "/a+b"),
        Row("raw UTF-8", [0x63, 0x61, 0x66, 0xC3, 0xA9], "caf\u{E9}"),
        Row("raw invalid UTF-8", [0x61, 0xFF], nil),
        Row("raw truncated UTF-8", [0x61, 0xC3], nil),
        // Escapes and plus.
        Row("plus as space", "a+b+", "a b "),
        Row("escaped space", "a%20b", "a b"),
        Row("escaped plus stays a plus", "a%2Bb", "a+b"),
        Row("lowercase hex", "%e2%82%ac", "\u{20AC}"),
        Row("uppercase hex", "%E2%82%AC", "\u{20AC}"),
        Row("escaped percent", "100%25", "100%"),
        Row("escaped NUL", "a%00b", "a\u{0}b"),
        Row("only an escape", "%41", "A"),
        Row("plus with raw UTF-8", [0xC3, 0xA9, 0x2B], "\u{E9} "),
        Row("escape with raw UTF-8", [0xC3, 0xA9, 0x25, 0x32, 0x30], "\u{E9} "),
        // Refused.
        Row("lone percent", "%", nil),
        Row("percent at the end", "ab%", nil),
        Row("one hex digit", "a%4", nil),
        Row("not hex", "%zz", nil),
        Row("second digit not hex", "%4g", nil),
        Row("escaped invalid UTF-8", "%FF", nil),
        Row("escaped truncated UTF-8", "a%C3", nil),
        Row("escaped bad continuation", "%C3%28", nil),
        Row("escaped overlong slash", "%C0%AF", nil),
        Row("escaped surrogate", "%ED%A0%80", nil),
        Row("plus before a bad escape", "a+%G1", nil),
    ]

    @Test(arguments: rows)
    func decodes(_ row: Row) {
        let decoded = row.bytes.withUnsafeBufferPointer { PercentDecoding.decode($0, plusIsSpace: row.plusIsSpace) }
        #expect(decoded == row.decoded)
    }

    @Test func decodesEverySingleByteEscape() {
        for value in 0...0x7F {
            let escape = Array("%\(String(value, radix: 16, uppercase: value % 2 == 0).leftPadded(2))".utf8)
            let decoded = escape.withUnsafeBufferPointer { PercentDecoding.decode($0, plusIsSpace: true) }
            #expect(decoded.map { Array($0.utf8) } == [UInt8(value)], "\(value)")
        }
        for value in 0x80...0xFF {
            let escape = Array("%\(String(value, radix: 16))".utf8)
            #expect(escape.withUnsafeBufferPointer { PercentDecoding.decode($0, plusIsSpace: true) } == nil, "\(value)")
        }
    }

    @Test func decodesTheQueryThroughTheParser() throws {
        let request = "GET /caf%C3%A9/x+y?q=a+b%2Bc&empty=&flag&&name%3D=%E2%82%AC&=v HTTP/1.1\r\nHost: x\r\n\r\n"
        guard case .complete(let head, _) = RequestHeadParser.parse(Array(request.utf8)) else {
            Issue.record("not complete")
            return
        }
        #expect(head.path == "/caf\u{E9}/x+y")
        #expect(head.query.items.map(\.name) == ["q", "empty", "flag", "name=", ""])
        #expect(head.query.items.map(\.value) == ["a b+c", "", "", "\u{20AC}", "v"])
    }

    @Test(arguments: ["/a", "/a?", "/a?&", "/a?&&"])
    func anEmptyQueryHasNoItems(_ target: String) throws {
        guard case .complete(let head, _) = RequestHeadParser.parse(Array("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n".utf8)) else {
            Issue.record("not complete")
            return
        }
        #expect(head.path == "/a")
        #expect(head.query.items.isEmpty)
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
