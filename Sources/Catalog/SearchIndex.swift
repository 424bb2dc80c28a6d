/// The full-text index of `GET /search` in the catalog database
/// (https://sqlite.org/fts5.html), built with the rest of the catalog.
///
/// One row per photo, its rowid the photo's `position` (its index in
/// `PhotoCatalog.photos`). Each column holds the keys of its words
/// (`SearchWords.indexedText`), so the `unicode61` tokenizer only splits at the spaces
/// between them and finds nothing left to fold: matching follows `SearchWords`
/// exactly, and FTS5 adds no rule of its own (`remove_diacritics 2` keeps `ø`, `ł`, `đ`
/// as they are, like `SearchWords`). `intersection` holds the photo's own label and its
/// location's. Contentless (`content=''`): queries read only the index. A prefix index
/// of 3-character prefixes makes the typical typeahead prefix one doclist read; longer
/// prefixes merge the doclists of their words. (Indexing every length from 2 to 5
/// tripled the index build: 7.5 s against 2.0 s here, with the machine loaded.)
public enum SearchIndex {
    static let statements = """
        CREATE VIRTUAL TABLE photo_search USING fts5(
            intersection, title, folder, text,
            tokenize = 'unicode61 remove_diacritics 2',
            prefix = '3',
            content = ''
        );
        """

    /// Every photo whose text holds a phrase (bound as `?1`, from `phrase(key:prefix:)`),
    /// in rowid (photo) order, with its `bm25()` rank: smaller is more relevant. The rank
    /// weighs a word found in an intersection or a title ten times one in the long
    /// description, a folder (the archive's short title) in between.
    ///
    /// FTS5's `bm25()` of a query of several phrases is the sum of each phrase's own
    /// (https://sqlite.org/fts5.html#the_bm25_function: every phrase's IDF counts the
    /// rows matching that phrase alone), so a search ranks by adding the ranks of its
    /// phrases, each looked up once and reusable by every query that holds it.
    public static let phraseRanksQuery =
        "SELECT rowid, bm25(photo_search, 10.0, 10.0, 4.0, 1.0) FROM photo_search WHERE photo_search MATCH ?1 ORDER BY rowid"

    /// The FTS5 query of one word key (from `SearchWords.key`): the word itself, or with
    /// `prefix` any word that starts with it. Quoted, so nothing in the key is query
    /// syntax (`OR`, `NEAR`, `*`, `-`, `^`, `:`, parentheses); keys never hold `"` (it is
    /// not a letter or digit).
    public static func phrase(key: String, prefix: Bool) -> String {
        "\"" + key + (prefix ? "\"*" : "\"")
    }
}
