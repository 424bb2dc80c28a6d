import HTTPServer

/// The fair-use rules of request bodies, applied by `JSONReader` as it reads a body and
/// recorded by the connection that answers the `400` (`HTTPError.refusal`).
extension RefusalRule {
    /// Arrays and objects nested deeper than `JSONReader.maxDepth`.
    static let bodyDepth = RefusalRule("body-depth")
    /// More values than `JSONReader.maxValues`.
    static let bodyValues = RefusalRule("body-values")
    /// A member name given twice in one object.
    static let bodyRepeatedName = RefusalRule("body-repeated-name")
    /// A member name with more than `JSONReader.maxNonStarters` combining marks in a row.
    static let bodyStreamSafe = RefusalRule("body-stream-safe")
    /// A body that is not UTF-8, or begins with a byte order mark.
    static let bodyEncoding = RefusalRule("body-encoding")
}

extension JSONReaderError {
    /// The fair-use rule this refusal enforces; nil for a body that is merely not JSON
    /// (malformed, a number beyond a double, a lone surrogate): a client's mistake, not
    /// a cost it tried to impose.
    var refusalRule: RefusalRule? {
        switch self {
        case .tooDeep: .bodyDepth
        case .tooManyValues: .bodyValues
        case .repeatedName: .bodyRepeatedName
        case .nameNotStreamSafe: .bodyStreamSafe
        case .notUTF8: .bodyEncoding
        case .malformed, .numberOutOfRange, .loneSurrogate: nil
        }
    }
}
