import Basics

/// The opaque `cursor` of `GET /search`: how many results precede the next page, and the
/// `SearchQuery.listDigest` of the list it pages through, as `<offset>.<16 hex digits>`.
/// The catalog never changes while the server runs, so an offset into the same ordered
/// list continues exactly after the previous page. Decoding is strict: only strings this
/// code produces, for this query, are accepted.
public enum SearchCursor {
    public static func encode(offset: Int, listDigest: UInt64) -> String {
        String(offset) + "." + Hex.string(listDigest)
    }

    /// The offset a cursor resumes at; `SearchError.invalidCursor` unless `cursor` is
    /// exactly what `encode` gives for some offset and `listDigest`.
    public static func decode(_ cursor: String, listDigest: UInt64) throws(SearchError) -> Int {
        let parts = cursor.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard cursor.utf8.count <= 40, parts.count == 2, let offset = Int(String(decoding: parts[0], as: UTF8.self)),
            offset > 0, encode(offset: offset, listDigest: listDigest) == cursor
        else { throw .invalidCursor }
        return offset
    }
}
