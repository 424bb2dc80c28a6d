/// Why `JSONReader` refused a body. A `path` names the member at fault as problem
/// details name it (`home.latitude`, `points[3].longitude`); it is empty for the body
/// itself.
enum JSONReaderError: Error, Equatable {
    /// A byte order mark, a UTF-16 or UTF-32 body, or bytes that are not well-formed
    /// UTF-8 (RFC 8259 §8.1; Unicode Table 3-7: no overlong forms, no surrogates).
    case notUTF8
    /// Not JSON text (RFC 8259 §2–§7): the first byte, counted from 0, where the grammar breaks.
    case malformed(offset: Int)
    /// An array or object opened deeper than `JSONReader.maxDepth`.
    case tooDeep
    /// More values than `JSONReader.maxValues`.
    case tooManyValues
    /// A member name given twice in one object; `path` is that member's.
    case repeatedName(path: String)
    /// A member name with a run of more than `JSONReader.maxNonStarters` combining marks
    /// (not Stream-Safe Text, UAX #15 §13); `path` is that of its object.
    case nameNotStreamSafe(path: String)
    /// A number beyond the range of a `Double`, such as `1e999`.
    case numberOutOfRange(path: String)
    /// A string with a `\u` escape of a lone surrogate (RFC 8259 §8.2): no code point.
    /// In a member name, `path` is that of its object.
    case loneSurrogate(path: String)
}
