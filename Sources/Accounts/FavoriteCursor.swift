/// The opaque `cursor` of `GET /favorites`: the `sequence` of the last favorite on
/// the previous page, as base64url of `f1:<sequence>`. The next page lists
/// sequences below it; favorites saved meanwhile get higher sequences, so pages
/// neither repeat nor skip anything. Decoding is strict: only strings this code
/// produces are accepted.
enum FavoriteCursor {
    private static let prefix = "f1:"

    static func encode(sequence: Int64) -> String {
        Base64URL.encode(Array((prefix + String(sequence)).utf8))
    }

    static func decode(_ cursor: String) throws -> Int64 {
        guard cursor.utf8.count <= 64, let bytes = Base64URL.decode(cursor) else { throw AccountsError.invalidCursor }
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.hasPrefix(prefix), let sequence = Int64(text.dropFirst(prefix.count)), sequence > 0,
            encode(sequence: sequence) == cursor
        else { throw AccountsError.invalidCursor }
        return sequence
    }
}
