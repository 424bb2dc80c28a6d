/// Why a search request cannot be answered: each case names the parameter at fault.
public enum SearchError: Error, Equatable, Sendable {
    /// `q` has this many code points, outside `SearchTerms.lengthRange`.
    case queryLength(Int)
    /// `q` holds no word: only punctuation, symbols or spaces.
    case noWords
    /// `q` holds this many words, more than `SearchTerms.maxWords`.
    case tooManyWords(Int)
    /// `cursor` is not one this server issued for this query.
    case invalidCursor
}
