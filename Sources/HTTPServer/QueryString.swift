import Basics

/// A request's query, the target's part after `?`, kept as sent and decoded on demand:
/// a handler reads a few parameters, and a String for every name and value cost more
/// than all of its reading. Its percent-escapes and UTF-8 are checked when it is made,
/// so decoding it later cannot fail.
public struct QueryString: Sendable {
    /// The query as sent: `&`-separated `name=value` pairs, percent-encoded, `+` for space.
    private let text: Substring

    /// The empty query.
    public init() {
        text = ""
    }

    /// The query of `items`, every byte but the unreserved ones (RFC 3986 §2.3) escaped,
    /// so that `items` reads them back unchanged.
    public init(items: [(name: String, value: String)]) {
        text = items.isEmpty ? "" : Substring(items.map { Self.escaped($0.name) + "=" + Self.escaped($0.value) }.joined(separator: "&"))
    }

    /// Nil when a name or value has an invalid percent-escape, or is not UTF-8 once decoded.
    init?(validating text: Substring) {
        self.text = text
        let valid = withBytes { bytes in
            // Without `%` and non-ASCII bytes, every part decodes (`+` is only a space).
            guard bytes.contains(where: { $0 == UInt8(ascii: "%") || $0 >= 0x80 }) else { return true }
            var valid = true
            Self.forEachPair(in: bytes) { name, value in
                valid = PercentDecoding.decode(name, plusIsSpace: true) != nil && PercentDecoding.decode(value, plusIsSpace: true) != nil
                return valid
            }
            return valid
        }
        guard valid else { return nil }
    }

    /// The `name=value` pairs, decoded, in order; empty pairs are skipped, a pair without
    /// `=` has an empty value.
    public var items: [(name: String, value: String)] {
        var items: [(name: String, value: String)] = []
        forEachPair { name, value in
            items.append((name.decoded, value.decoded))
            return true
        }
        return items
    }

    /// Calls `body` with each pair's name and value as sent, in order, empty pairs skipped,
    /// until it returns false.
    package func forEachPair(_ body: (_ name: Part, _ value: Part) throws -> Bool) rethrows {
        try withBytes { bytes in
            try Self.forEachPair(in: bytes) { try body(Part(bytes: $0), Part(bytes: $1)) }
        }
    }

    /// A name or value as sent, valid while the closure it is given to runs.
    package struct Part {
        /// The bytes as sent, escapes and `+` undecoded.
        let bytes: UnsafeBufferPointer<UInt8>

        /// Whether decoding changes the bytes: they hold a `%XX` escape or a `+`.
        private var isEscaped: Bool {
            bytes.contains { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }
        }

        package var decoded: String {
            guard let text = PercentDecoding.decode(bytes, plusIsSpace: true) else {
                preconditionFailure("QueryString: checked when it was made")
            }
            return text
        }

        /// Whether the part, decoded, is `text`; most are compared byte for byte, undecoded.
        package func equals(_ text: String) -> Bool {
            guard !isEscaped else { return decoded == text }
            var text = text
            return text.withUTF8 { $0.elementsEqual(bytes) }
        }

        /// Calls `body` with the decoded part's UTF-8 bytes, which are the bytes as sent
        /// unless the part is escaped.
        package func withDecodedBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
            guard isEscaped else { return try body(bytes) }
            var text = decoded
            return try text.withUTF8(body)
        }
    }

    private func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        var text = text
        return try text.withUTF8(body)
    }

    private static func forEachPair(
        in bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) throws -> Bool
    ) rethrows {
        var pairStart = 0
        while pairStart < bytes.count {
            let pairEnd = bytes[pairStart...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.count
            if pairEnd > pairStart {
                let equals = bytes[pairStart..<pairEnd].firstIndex(of: UInt8(ascii: "=")) ?? pairEnd
                let name = UnsafeBufferPointer(rebasing: bytes[pairStart..<equals])
                let value = UnsafeBufferPointer(rebasing: bytes[min(equals + 1, pairEnd)..<pairEnd])
                guard try body(name, value) else { return }
            }
            pairStart = pairEnd + 1
        }
    }

    private static func escaped(_ text: String) -> String {
        var escaped = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                escaped += "%" + Hex.string([byte])
            }
        }
        return escaped
    }
}
