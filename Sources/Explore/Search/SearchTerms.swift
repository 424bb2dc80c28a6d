import Catalog

/// The words of a search box's text `q`, validated and reduced to their keys
/// (`SearchWords`): every key must be a word of a matching photo, the last one also as
/// a prefix, so a search box can ask as the user types.
public struct SearchTerms: Sendable, Hashable {
    /// Code points of `q`, as received.
    public static let lengthRange = 1...200
    public static let maxWords = 8

    /// The keys of `q`'s words, in order; never empty.
    public let keys: [String]

    public init(_ q: String) throws(SearchError) {
        let length = q.unicodeScalars.count
        guard Self.lengthRange.contains(length) else { throw .queryLength(length) }
        let words = SearchWords.words(q)
        guard !words.isEmpty else { throw .noWords }
        guard words.count <= Self.maxWords else { throw .tooManyWords(words.count) }
        keys = words.map { SearchWords.key($0) }
    }

    /// One phrase per word, in order: the last one a prefix.
    var phrases: [SearchPhrase] {
        keys.indices.map { SearchPhrase(key: keys[$0], isPrefix: $0 == keys.count - 1) }
    }
}
