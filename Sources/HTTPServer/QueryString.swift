import Basics

/// A request's query, the target's part after `?`, kept as sent and decoded on demand:
/// a handler reads a few parameters, and a String for every name and value cost more
/// than all of its reading. Its percent-escapes and UTF-8 are checked when it is made,
/// so decoding it later cannot fail.
public struct QueryString: Sendable {
    /// Holds the query as sent from `start` on: `&`-separated `name=value` pairs,
    /// percent-encoded, `+` for space. A request's query is the end of its target, kept
    /// whole: a native String's bytes are reached at once, a Substring's only after checks.
    @usableFromInline let text: String
    /// The UTF-8 offset of the query in `text`.
    @usableFromInline let start: Int

    /// The empty query.
    public init() {
        text = ""
        start = 0
    }

    /// The query of `items`, every byte but the unreserved ones (RFC 3986 §2.3) escaped,
    /// so that `items` reads them back unchanged.
    public init(items: [(name: String, value: String)]) {
        text = items.map { Self.escaped($0.name) + "=" + Self.escaped($0.value) }.joined(separator: "&")
        start = 0
    }

    /// The query as it stands in a request-target, after the `?`.
    public var encoded: String {
        String(decoding: text.utf8.dropFirst(start), as: UTF8.self)
    }

    /// The query that starts at UTF-8 offset `start` of `text` (a request-target, after its
    /// `?`); nil when a name or value has an invalid percent-escape, or is not UTF-8 once decoded.
    init?(validating text: String, from start: Int) {
        self.text = text
        self.start = start
        let valid = withBytes { bytes in
            // Without `%` and non-ASCII bytes, every part decodes (`+` is only a space).
            guard bytes.contains(where: { $0 == UInt8(ascii: "%") || $0 >= 0x80 }) else { return true }
            var valid = true
            Self.forEachPair(in: bytes) { name, value in
                valid = PercentDecoding.decode(UnsafeBufferPointer(rebasing: bytes[name]), plusIsSpace: true) != nil
                    && PercentDecoding.decode(UnsafeBufferPointer(rebasing: bytes[value]), plusIsSpace: true) != nil
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
    /// until it returns false. Inlinable, as the scans built on it: a handler's parameters
    /// are read in a few hundred instructions only when no call separates them from the bytes.
    @inlinable
    public func forEachPair(_ body: (_ name: Part, _ value: Part) throws -> Bool) rethrows {
        try withBytes { bytes in
            try Self.forEachPair(in: bytes) { name, value in
                try body(Part(bytes: bytes, offsets: name), Part(bytes: bytes, offsets: value))
            }
        }
    }

    /// Calls `body` with the part at `offsets`, as `forEachPair` gave it.
    @inlinable
    public func withPart<Result>(at offsets: Range<Int>, _ body: (Part) throws -> Result) rethrows -> Result {
        try withBytes { try body(Part(bytes: $0, offsets: offsets)) }
    }

    /// A name or value as sent, valid while the closure it is given to runs.
    public struct Part {
        /// The bytes as sent, escapes and `+` undecoded.
        @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
        /// Where the part lies in the query's bytes, for `withPart(at:)`.
        public let offsets: Range<Int>

        @inlinable
        init(bytes query: UnsafeBufferPointer<UInt8>, offsets: Range<Int>) {
            bytes = UnsafeBufferPointer(rebasing: query[offsets])
            self.offsets = offsets
        }

        /// Whether decoding changes the bytes: they hold a `%XX` escape or a `+`.
        @inlinable
        public var isEscaped: Bool {
            bytes.contains { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }
        }

        public var decoded: String {
            guard let text = PercentDecoding.decode(bytes, plusIsSpace: true) else {
                preconditionFailure("QueryString: checked when it was made")
            }
            return text
        }

        /// Whether the part, decoded, is `text`; most are compared byte for byte, undecoded.
        @inlinable
        public func equals(_ text: String) -> Bool {
            guard !isEscaped else { return decoded == text }
            return equalsUndecoded(text)
        }

        /// Whether the bytes as sent are `text`'s: most texts differ in length, checked first.
        @inlinable
        public func equalsUndecoded(_ text: String) -> Bool {
            guard text.utf8.count == bytes.count else { return false }
            return text.utf8.withContiguousStorageIfAvailable { $0.elementsEqual(bytes) } ?? text.utf8.elementsEqual(bytes)
        }

        /// Calls `body` with the decoded part's UTF-8 bytes, which are the bytes as sent
        /// unless the part is escaped.
        @inlinable
        public func withDecodedBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
            guard isEscaped else { return try body(bytes) }
            var text = decoded
            return try text.withUTF8(body)
        }
    }

    @inlinable
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let result = try text.utf8.withContiguousStorageIfAvailable({ try body(UnsafeBufferPointer(rebasing: $0[start...])) }) {
            return result
        }
        var text = text
        return try text.withUTF8 { try body(UnsafeBufferPointer(rebasing: $0[start...])) }
    }

    /// Calls `body` with each non-empty pair's name and value offsets in `bytes`.
    @inlinable
    static func forEachPair(in bytes: UnsafeBufferPointer<UInt8>, _ body: (Range<Int>, Range<Int>) throws -> Bool) rethrows {
        var pairStart = 0
        while pairStart < bytes.count {
            let pairEnd = bytes[pairStart...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.count
            if pairEnd > pairStart {
                let equals = bytes[pairStart..<pairEnd].firstIndex(of: UInt8(ascii: "=")) ?? pairEnd
                guard try body(pairStart..<equals, min(equals + 1, pairEnd)..<pairEnd) else { return }
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
