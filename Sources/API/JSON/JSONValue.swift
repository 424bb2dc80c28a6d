/// A JSON value as `JSONReader` reads it and `JSONBody` hands it out: `true` is not
/// the number 1, and strings are the body's code points as sent (never normalized).
enum JSONValue: Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// What the value is, for problem details ("must be a string, not a number").
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
