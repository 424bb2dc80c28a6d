import Testing

@testable import HTTPServer

@Suite struct ChunkedBodyDecoderTests {
    private func decode(_ text: String, max: Int = 64 * 1024) -> (ChunkedBodyDecoder.Progress, [UInt8]) {
        var decoder = ChunkedBodyDecoder(maxBodyBytes: max)
        var body: [UInt8] = []
        let progress = Array(text.utf8).withUnsafeBufferPointer { decoder.decode($0, into: &body) }
        return (progress, body)
    }

    struct Valid: CustomTestStringConvertible, Sendable {
        let encoded: String
        let decoded: String
        var testDescription: String { encoded.debugDescription }
    }

    static let valid: [Valid] = [
        Valid(encoded: "0\r\n\r\n", decoded: ""),
        Valid(encoded: "5\r\nhello\r\n0\r\n\r\n", decoded: "hello"),
        Valid(encoded: "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n", decoded: "hello world"),
        Valid(encoded: "A\r\n0123456789\r\n0\r\n\r\n", decoded: "0123456789"),
        Valid(encoded: "a\r\n0123456789\r\n0\r\n\r\n", decoded: "0123456789"),
        Valid(encoded: "005\r\nhello\r\n0\r\n\r\n", decoded: "hello"),
        Valid(encoded: "5;name=value\r\nhello\r\n0\r\n\r\n", decoded: "hello"),
        Valid(encoded: "5 ; name = \"quoted \\\" value\" ; flag\r\nhello\r\n0\r\n\r\n", decoded: "hello"),
        Valid(encoded: "5\r\nhello\r\n0\r\nTrailer: ignored\r\nOther: too\r\n\r\n", decoded: "hello"),
    ]

    @Test(arguments: valid)
    func decodesValidBodies(_ row: Valid) {
        let (progress, body) = decode(row.encoded)
        guard case .complete(let consumed) = progress else {
            Issue.record("not complete: \(progress)")
            return
        }
        #expect(consumed == row.encoded.utf8.count)
        #expect(String(decoding: body, as: UTF8.self) == row.decoded)
    }

    @Test func decodesByteByByte() {
        let encoded = Array("5;x=1\r\nhello\r\n6\r\n world\r\n0\r\nT: v\r\n\r\n".utf8)
        var decoder = ChunkedBodyDecoder(maxBodyBytes: 1024)
        var body: [UInt8] = []
        var pending: [UInt8] = []
        var finished = false
        for byte in encoded {
            pending.append(byte)
            let progress = pending.withUnsafeBufferPointer { decoder.decode($0, into: &body) }
            switch progress {
            case .incomplete(let consumed):
                pending.removeFirst(consumed)
            case .complete(let consumed):
                #expect(consumed == pending.count)
                finished = true
            case .invalid(let status, let reason):
                Issue.record("\(status) \(reason)")
                return
            }
        }
        #expect(finished)
        #expect(String(decoding: body, as: UTF8.self) == "hello world")
    }

    static let invalid: [RefusedInput] = [
        RefusedInput(name: "non-hex size", bytes: "g\r\nhello\r\n0\r\n\r\n", status: 400),
        RefusedInput(name: "empty size", bytes: "\r\nhello\r\n0\r\n\r\n", status: 400),
        RefusedInput(name: "negative size", bytes: "-5\r\nhello\r\n0\r\n\r\n", status: 400),
        RefusedInput(name: "size with 0x prefix", bytes: "0x5\r\nhello\r\n0\r\n\r\n", status: 400),
        RefusedInput(name: "overflowing size", bytes: "ffffffffffffffffff\r\nhello\r\n", status: 400),
        RefusedInput(name: "garbage after size", bytes: "5 garbage\r\nhello\r\n0\r\n\r\n", status: 400),
        RefusedInput(name: "extension without name", bytes: "5;\r\nhello\r\n0\r\n\r\n", status: 400),
        RefusedInput(name: "extension with bad value", bytes: "5;a=(b)\r\nhello\r\n0\r\n\r\n", status: 400),
        RefusedInput(name: "unterminated quoted extension", bytes: "5;a=\"b\r\nhello\r\n0\r\n\r\n", status: 400),
        RefusedInput(name: "missing CRLF after data", bytes: "5\r\nhelloXX0\r\n\r\n", status: 400),
        RefusedInput(name: "bare LF after size", bytes: "5\nhello\r\n0\r\n\r\n", status: 400),
        RefusedInput(name: "bare CR after size", bytes: "5\rhello\r\n0\r\n\r\n", status: 400),
        RefusedInput(name: "malformed trailer", bytes: "0\r\nno colon here\r\n\r\n", status: 400),
        RefusedInput(name: "too large", bytes: "10001\r\n", status: 413),
    ]

    @Test(arguments: invalid)
    func refusesMalformedBodies(_ row: RefusedInput) {
        let (progress, _) = decode(row.bytes)
        guard case .invalid(let status, _) = progress else {
            Issue.record("\(row.name): expected \(row.status), got \(progress)")
            return
        }
        #expect(status.code == row.status)
    }

    @Test func refusesABodyThatGrowsPastTheLimitAcrossChunks() {
        let (progress, _) = decode("4\r\nabcd\r\n4\r\nefgh\r\n0\r\n\r\n", max: 6)
        guard case .invalid(let status, _) = progress else {
            Issue.record("expected 413, got \(progress)")
            return
        }
        #expect(status == .contentTooLarge)
    }
}
