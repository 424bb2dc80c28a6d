/// The opaque `cursor` of a list that does not change while the server runs (a list
/// over the catalog): how many items precede the next page, and the digest of the list
/// it pages through (`StableDigest`), as `<offset>.<16 hex digits>`. An offset into the
/// same ordered list continues exactly after the previous page. Decoding is strict:
/// only strings this code produces, for this list, are accepted, so a cursor given with
/// other filters is refused instead of paging through the wrong list.
public enum OffsetCursor {
    public static func encode(offset: Int, listDigest: UInt64) -> String {
        String(offset) + "." + Hex.string(listDigest)
    }

    /// The offset a cursor resumes at; nil unless `cursor` is exactly what `encode`
    /// gives for some positive offset and `listDigest`.
    public static func decode(_ cursor: String, listDigest: UInt64) -> Int? {
        let parts = cursor.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard cursor.utf8.count <= 40, parts.count == 2, let offset = Int(String(decoding: parts[0], as: UTF8.self)),
            offset > 0, encode(offset: offset, listDigest: listDigest) == cursor
        else { return nil }
        return offset
    }
}
