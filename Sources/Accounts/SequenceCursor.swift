import Basics

/// The opaque `cursor` of a list ordered by an ever-growing row sequence (an
/// AUTOINCREMENT key, https://sqlite.org/autoinc.html): the sequence of the last item
/// on the previous page, as base64url of `<prefix><sequence>`. The next page of a list
/// shown newest first lists sequences below it, and of one shown oldest first (the
/// moderation queue) sequences above it; items added meanwhile get higher sequences
/// and items removed leave no gap, so pages neither repeat nor skip anything.
/// Decoding is strict: only strings this code produces are accepted, and each list
/// has its own prefix, so a cursor of one list is refused by another.
public struct SequenceCursor: Sendable {
    private let prefix: String

    /// `GET /favorites`.
    static let favorites = SequenceCursor(prefix: "f1:")

    /// - Parameter prefix: names the list (and the format's version), e.g. `f1:`.
    public init(prefix: String) {
        self.prefix = prefix
    }

    public func encode(sequence: Int64) -> String {
        Base64.url.encode(Array((prefix + String(sequence)).utf8))
    }

    /// The sequence the cursor continues after.
    /// - Throws: `AccountsError.invalidCursor` for a string `encode` did not make.
    public func decode(_ cursor: String) throws -> Int64 {
        guard cursor.utf8.count <= 64, let bytes = Base64.url.decode(cursor) else { throw AccountsError.invalidCursor }
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.hasPrefix(prefix), let sequence = Int64(text.dropFirst(prefix.count)), sequence > 0,
            encode(sequence: sequence) == cursor
        else { throw AccountsError.invalidCursor }
        return sequence
    }
}
