/// The query parameters an endpoint reads, each name packed once into two words, so
/// that finding a query's name among them, or a handler's, costs a few integer
/// comparisons instead of a String comparison per name: a catalog request looks up
/// about a dozen names.
struct QueryParameterNames: ExpressibleByArrayLiteral, Sendable {
    /// The names, in the order the endpoint declared them.
    let names: [String]
    private let keys: [Key]

    /// A name of at most `Key.maxBytes` bytes: its length and its bytes, zero-padded.
    private struct Key: Equatable {
        static let maxBytes = 16
        var count: Int
        var low: UInt64
        var high: UInt64

        /// Nil for a name too long to be a known one.
        init?(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard bytes.count <= Self.maxBytes else { return nil }
            count = bytes.count
            var words: (UInt64, UInt64) = (0, 0)
            if let start = bytes.baseAddress {
                withUnsafeMutableBytes(of: &words) { $0.baseAddress!.copyMemory(from: start, byteCount: bytes.count) }
            }
            (low, high) = words
        }
    }

    /// - Precondition: at most 16 names, each at most 16 bytes of UTF-8.
    init(arrayLiteral names: String...) {
        precondition(names.count <= 16, "QueryParameterNames: at most 16 names")
        self.names = names
        keys = names.map { name in
            var name = name
            guard let key = name.withUTF8(Key.init) else {
                preconditionFailure("QueryParameterNames: '\(name)' is longer than \(Key.maxBytes) bytes")
            }
            return key
        }
    }

    /// The position of the name whose UTF-8 bytes are `bytes`; nil when it is not one of them.
    func index(ofBytes bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let key = Key(bytes) else { return nil }
        return keys.firstIndex(of: key)
    }

    /// The position of `name`; nil when it is not one of them. A handler's names are
    /// literals, whose bytes are read in place.
    func index(of name: StaticString) -> Int? {
        index(ofBytes: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    }
}
