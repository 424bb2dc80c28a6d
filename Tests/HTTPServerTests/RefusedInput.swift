import Testing

/// Bytes the server must refuse, with the status it answers and a name for the report:
/// the rows of the parser, chunked-decoder and limit tables.
struct RefusedInput: CustomTestStringConvertible, Sendable {
    let name: String
    let bytes: String
    let status: Int
    var testDescription: String { name }
}
