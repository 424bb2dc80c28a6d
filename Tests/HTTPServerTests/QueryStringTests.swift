import Testing
import TestSupport

@testable import HTTPServer

/// `QueryString` keeps a query as sent and decodes it on demand. Its twin here decodes
/// eagerly, pair by pair, the way the parser once did; both must agree on which queries
/// are valid and on every item, for random queries of escapes, `+`, empty pairs,
/// duplicates, broken escapes and non-UTF-8 bytes.
@Suite struct QueryStringTests {
    @Test func lazyDecodingMatchesTheEagerTwin() {
        var random = SeededGenerator(seed: 0x9E7)
        var valid = 0
        for _ in 0..<5000 {
            let text = Self.randomQuery(using: &random)
            let twin = Self.eagerItems(text)
            let query = QueryString(validating: "/p?" + text, from: 3)
            #expect((query == nil) == (twin == nil), "\(text)")
            guard let query, let twin else { continue }
            valid += 1
            #expect(query.items.map(\.name) == twin.map(\.name), "\(text)")
            #expect(query.items.map(\.value) == twin.map(\.value), "\(text)")
            var names: [String] = []
            query.forEachPair { name, _ in
                names.append(name.decoded)
                // An undecoded comparison must agree with the decoded one.
                #expect(name.equals(name.decoded))
                #expect(!name.equals(name.decoded + "x"))
                return true
            }
            #expect(names == twin.map(\.name))
        }
        // Enough of both kinds to mean something.
        #expect(valid > 1000 && valid < 4900)
    }

    @Test func itemsReadBackAsGiven() {
        var random = SeededGenerator(seed: 0x17E)
        let alphabet = Array("aZ09-._~ +&=%?/#\u{E9}\u{20AC}")
        for _ in 0..<2000 {
            let items = (0..<(random.next() % 4)).map { _ in
                (name: String((0..<(random.next() % 6)).map { _ in alphabet.randomElement(using: &random)! }),
                 value: String((0..<(random.next() % 6)).map { _ in alphabet.randomElement(using: &random)! }))
            }
            let query = QueryString(items: items)
            #expect(query.items.map(\.name) == items.map(\.name))
            #expect(query.items.map(\.value) == items.map(\.value))
        }
    }

    private static func randomQuery(using random: inout SeededGenerator) -> String {
        let pieces = ["lat", "=", "&", "&&", "40.7", "+", "%2B", "%20", "%3d", "%E2%82%AC", "%e9", "%", "%4", "%zz", "a", "==", "\u{E9}"]
        return (0..<(random.next() % 8)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    /// The twin: split on `&`, skip empty pairs, split each at its first `=`, decode both
    /// sides with `+` as space; nil when any side fails to decode.
    private static func eagerItems(_ text: String) -> [(name: String, value: String)]? {
        var items: [(name: String, value: String)] = []
        for pair in text.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
            let name = Array(pair[pair.startIndex..<equals])
            let value = equals == pair.endIndex ? [] : Array(pair[pair.index(after: equals)...])
            guard let decodedName = name.withUnsafeBufferPointer({ PercentDecoding.decode($0, plusIsSpace: true) }),
                let decodedValue = value.withUnsafeBufferPointer({ PercentDecoding.decode($0, plusIsSpace: true) })
            else { return nil }
            items.append((decodedName, decodedValue))
        }
        return items
    }
}
