import Explore
import HTTPServer

extension SearchError: HTTPResponseError {
    /// The 400 the client sees, naming the parameter at fault.
    public var problem: HTTPError? {
        switch self {
        case .queryLength(let length):
            return QueryParameters.invalid(
                "q",
                "must hold \(SearchTerms.lengthRange.lowerBound) to \(SearchTerms.lengthRange.upperBound) characters, not \(length)")
        case .noWords:
            return QueryParameters.invalid("q", "must hold at least one word (letters or digits)")
        case .tooManyWords(let count):
            return QueryParameters.invalid("q", "must hold at most \(SearchTerms.maxWords) words, not \(count)")
        case .invalidCursor:
            return QueryParameters.invalid("cursor", "is not one this server issued for this search")
        }
    }
}
