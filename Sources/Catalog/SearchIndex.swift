/// The full-text index of `GET /search` in the catalog database
/// (https://sqlite.org/fts5.html), built with the rest of the catalog.
///
/// One row per photo, its rowid the photo's `position` (its index in
/// `PhotoCatalog.photos`). Each column holds the keys of its words
/// (`SearchWords.indexedText`), so the `unicode61` tokenizer only splits at the spaces
/// between them and finds nothing left to fold: matching follows `SearchWords`
/// exactly, and FTS5 adds no rule of its own (`remove_diacritics 2` keeps `ø`, `ł`, `đ`
/// as they are, like `SearchWords`). `intersection` holds the photo's own label and its
/// location's. Contentless (`content=''`): queries read only the index.
public enum SearchIndex {
    static let statements = """
        CREATE VIRTUAL TABLE photo_search USING fts5(
            intersection, title, folder, text,
            tokenize = 'unicode61 remove_diacritics 2',
            prefix = '2 3 4 5',
            content = ''
        );
        """

    /// Every photo matching a full-text query (bound as `?1`), with its rank: smaller is
    /// more relevant. `bm25()` weighs a word found in an intersection or a title ten times
    /// one in the long description, a folder (the archive's short title) in between.
    public static let rankedMatchesQuery =
        "SELECT rowid, bm25(photo_search, 10.0, 10.0, 4.0, 1.0) FROM photo_search WHERE photo_search MATCH ?1"

    /// The full-text query for `keys` (from `SearchWords.key`): every key must be a word
    /// of the photo, the last one also as a prefix. Each key is a quoted string, so
    /// nothing in it is query syntax (`OR`, `NEAR`, `*`, `-`, `^`, `:`, parentheses);
    /// keys never hold `"` (not a letter or digit).
    public static func matchExpression(keys: [String]) -> String {
        var expression = ""
        for (offset, key) in keys.enumerated() {
            if offset > 0 { expression += " " }
            expression += "\"" + key + "\""
            if offset == keys.count - 1 { expression += "*" }
        }
        return expression
    }
}
