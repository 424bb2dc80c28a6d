/// FTS5's own answer to a search, from the catalog's `photo_search` table: the oracle the
/// in-memory ranking must equal. The weights are written out here, not taken from the
/// server's code.
enum FTS5Ranking {
    /// Every photo matching the FTS5 expression `?1`, with its `bm25()` rank.
    static let query = "SELECT rowid, bm25(photo_search, 10.0, 10.0, 4.0, 1.0) FROM photo_search WHERE photo_search MATCH ?1"

    /// The FTS5 expression of a query's keys: each quoted (so nothing in it is query
    /// syntax), the last one a prefix phrase.
    static func expression(_ keys: [String]) -> String {
        keys.indices.map { phrase(keys[$0], prefix: $0 == keys.count - 1) }.joined(separator: " ")
    }

    static func phrase(_ key: String, prefix: Bool) -> String {
        "\"" + key.replacingOccurrences(of: "\"", with: "\"\"") + (prefix ? "\"*" : "\"")
    }
}
