/// libFuzzer target: the percent-decoder and the query splitter.
///
/// `PercentDecoding.decode` is compared with a plain decoder written here (an
/// independent oracle), and when the input is a possible query (visible ASCII) it is
/// sent as `GET /q?<input>` through `RequestHeadParser`: every query item must be the
/// oracle's decoding of one `&`-separated pair.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQuery(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    for plusIsSpace in [false, true] {
        let decoded = PercentDecoding.decode(input, plusIsSpace: plusIsSpace)
        let expected = oracle(Array(input), plusIsSpace: plusIsSpace)
        precondition(decoded == expected, "decoded \(String(describing: decoded)), the oracle \(String(describing: expected))")
    }

    guard input.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return 0 }
    let head = Array("GET /q?".utf8) + Array(input) + Array(" HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
    let pairs = input.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true).map { pair in
        let equals = pair.firstIndex(of: UInt8(ascii: "="))
        let name = oracle(Array(pair[..<(equals ?? pair.endIndex)]), plusIsSpace: true)
        let value = oracle(equals.map { Array(pair[($0 + 1)...]) } ?? [], plusIsSpace: true)
        return (name, value)
    }
    let limits = ParseLimits(maxHeadBytes: 1 << 20, maxURIBytes: 1 << 20, maxBodyBytes: 0)
    switch RequestHeadParser.parse(head, limits: limits) {
    case .complete(let parsed, _):
        precondition(parsed.query.items.count == pairs.count, "\(parsed.query.items.count) items for \(pairs.count) pairs")
        for (item, pair) in zip(parsed.query.items, pairs) {
            precondition(item.name == pair.0 && item.value == pair.1, "item \(item) is not the pair \(pair)")
        }
    case .invalid:
        precondition(pairs.contains { $0.0 == nil || $0.1 == nil }, "a query of valid pairs was refused")
    case .incomplete:
        preconditionFailure("a whole head was incomplete")
    }
    return 0
}

/// RFC 3986 §2.1 by the letter: `%` and two hex digits is one byte; anything else is
/// malformed; the result must be UTF-8.
private func oracle(_ bytes: [UInt8], plusIsSpace: Bool) -> String? {
    var output: [UInt8] = []
    var index = 0
    while index < bytes.count {
        if bytes[index] == UInt8(ascii: "%") {
            guard index + 2 < bytes.count,
                let byte = UInt8(String(decoding: bytes[(index + 1)...(index + 2)], as: UTF8.self), radix: 16),
                bytes[(index + 1)...(index + 2)].allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) })
            else { return nil }
            output.append(byte)
            index += 3
        } else {
            output.append(plusIsSpace && bytes[index] == UInt8(ascii: "+") ? UInt8(ascii: " ") : bytes[index])
            index += 1
        }
    }
    return String(validating: output, as: UTF8.self)
}
