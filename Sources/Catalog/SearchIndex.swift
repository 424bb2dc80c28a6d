/// The full-text index of `GET /search` in the catalog database
/// (https://sqlite.org/fts5.html), built with the rest of the catalog, and the per-word
/// postings derived from it that the server ranks in memory (`SearchPostingsWriter`).
///
/// `photo_search` has one row per photo, its rowid the photo's `position` (its index in
/// `PhotoCatalog.photos`). Each column holds the keys of its words
/// (`SearchWords.indexedText`), so the `unicode61` tokenizer only splits at the spaces
/// between them and finds nothing left to fold: matching follows `SearchWords`
/// exactly, and FTS5 adds no rule of its own (`remove_diacritics 2` keeps `ø`, `ł`, `đ`
/// as they are, like `SearchWords`). `intersection` holds the photo's own label and its
/// location's. Contentless (`content=''`): only the index is kept. No prefix index: the
/// server never queries FTS5; prefixes are ranges of the sorted word list in memory.
///
/// `photo_search_words` holds, for every word (FTS5's own tokens, read back through
/// `fts5vocab`), the photos whose text holds it, ascending, as little-endian `UInt32`s,
/// and in each the word's hits weighted by column (`columnWeights`), summed, as
/// little-endian `UInt32`s: what FTS5's `bm25()` adds up per phrase.
/// `photo_search_lengths` holds every photo's number of tokens in all columns, the
/// document length of `bm25()`.
public enum SearchIndex {
    static let statements = """
        CREATE VIRTUAL TABLE photo_search USING fts5(
            intersection, title, folder, text,
            tokenize = 'unicode61 remove_diacritics 2',
            content = ''
        );
        CREATE TABLE photo_search_words (
            word TEXT PRIMARY KEY,
            photos BLOB NOT NULL,
            frequencies BLOB NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE photo_search_lengths (
            photo INTEGER PRIMARY KEY,
            tokens INTEGER NOT NULL
        );
        """

    /// The `intersection` column of a photo's row: the keys of its own label, then of its
    /// location's. The only column a correction changes (a moved photo loses its label;
    /// its old and new locations may change theirs), which `SearchPostings` patches.
    public static func placeColumn(photo: String?, location: String?) -> String {
        SearchWords.indexedText(photo) + " " + SearchWords.indexedText(location)
    }

    /// The weight of a hit in each column of `photo_search`, in column order: a word
    /// found in an intersection or a title counts ten times one in the long description,
    /// a folder (the archive's short title) in between. They are the weights of
    /// `bm25(photo_search, 10.0, 10.0, 4.0, 1.0)`, which the in-memory ranking
    /// reproduces (and the tests compare with).
    public static let columnWeights: [(column: String, weight: Int)] = [
        ("intersection", 10), ("title", 10), ("folder", 4), ("text", 1),
    ]
}
