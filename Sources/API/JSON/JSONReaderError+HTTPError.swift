import HTTPServer

extension JSONReaderError {
    /// The 400 of a body refused while reading it, naming the member at fault when one is,
    /// and carrying the fair-use rule it enforces (`refusalRule`), which the connection
    /// records as it answers.
    ///
    /// - Parameter shape: what the endpoint expects, added to the answer to a body that is
    ///   not JSON at all, so that it names the fields too.
    func httpError(shape: String?) -> HTTPError {
        HTTPError(.badRequest, detail: detail(shape: shape), refusal: refusalRule)
    }

    private func detail(shape: String?) -> String {
        switch self {
        case .notUTF8:
            "the request body must be UTF-8 without a byte order mark"
        case .malformed(let offset):
            "the request body is not valid JSON (at byte \(offset))" + (shape.map { "; expected \($0)" } ?? "")
        case .tooDeep:
            "the request body nests arrays and objects more than \(JSONReader.maxDepth) deep (its depth limit)"
        case .tooManyValues:
            "the request body holds more than \(JSONReader.maxValues) values (arrays, objects and the values in them)"
        case .repeatedName(let path):
            "\(path) is given more than once; a member name may appear only once in an object"
        case .nameNotStreamSafe(let path):
            "a member name of \(path.isEmpty ? "the request body" : path) holds more than \(JSONReader.maxNonStarters) combining marks in a row"
        case .numberOutOfRange(let path):
            Self.invalid(path, "a number too large for a double")
        case .loneSurrogate(let path):
            Self.invalid(path, "a string with a lone surrogate escape")
        }
    }

    private static func invalid(_ path: String, _ what: String) -> String {
        "\(path.isEmpty ? "the request body" : path) is not a valid JSON value (\(what))"
    }
}
