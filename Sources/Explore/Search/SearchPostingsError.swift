/// Why the search postings of a generation could not be made from the shipped ones.
public enum SearchPostingsError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Taking a photo's old place out would leave a word with fewer than no hits in it:
    /// the shipped postings were not built from the place the catalog says it had.
    case negativeHits(word: String)

    public var description: String {
        switch self {
        case .negativeHits(let word):
            return "the search postings of \(word) disagree with the shipped catalog"
        }
    }
}
