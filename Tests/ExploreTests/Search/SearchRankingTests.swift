import Catalog
import Foundation
import SQLite
import Testing
import TestSupport

@testable import Explore

/// The in-memory ranking (`SearchPostings`) against FTS5's `bm25()` on the real catalog:
/// the same photos and the very same doubles, phrase by phrase and for whole queries.
@Suite struct SearchRankingTests {
    static let postings: Result<SearchPostings, any Error> = Result {
        try SearchPostings(path: try SharedCatalog.path(), photoCount: try SharedCatalog.catalog().photos.count)
    }

    /// FTS5's photos and ranks for an expression, in photo order.
    static func fts5(_ expression: String, on connection: SQLiteConnection) throws -> [(photo: Int32, rank: Double)] {
        try connection.query(FTS5Ranking.query + " ORDER BY rowid", [.text(expression)]) { (Int32($0.int(0)), $0.double(1)) }
    }

    /// Random queries drawn from the photos' text (with accents and case changes), and
    /// short prefixes, which unite many words.
    @Test(arguments: 0..<4)
    func phraseRanksEqualFTS5(seed: UInt64) throws {
        let oracle = try SearchHarness.oracle()
        let postings = try Self.postings.get()
        let connection = try SQLiteConnection(path: try SharedCatalog.path(), mode: .readOnly)
        var generator = SeededGenerator(seed: 0xB2_5000 + seed)
        var queries = (0..<25).map { _ in SearchOracleTests.randomQuery(oracle, &generator) }
        queries += ["s", "st", "1", "ab", "zzzq", "Å", "ø", "ŁÓDŹ", "straße", "caf\u{301}e", "東京"].shuffled(using: &generator).prefix(3)
        for q in queries {
            let terms = try SearchTerms(q)
            var wholeQuery: [Int32: Double]?
            for phrase in terms.phrases {
                let ranked = postings.ranks(postings.words(phrase))
                let expected = try Self.fts5(FTS5Ranking.phrase(phrase.key, prefix: phrase.isPrefix), on: connection)
                let samePhotos = ranked.photos == expected.map(\.photo)
                #expect(samePhotos, "photos of \(phrase) in q=\(q): \(ranked.photos.count) against \(expected.count)")
                let differentRanks = zip(ranked.ranks, expected).filter { $0 != $1.rank }.count
                #expect(differentRanks == 0, "ranks of \(phrase) in q=\(q)")
                // A query's rank is its phrases' ranks added in order, as `PhotoSearch` adds them.
                let ranks = Dictionary(uniqueKeysWithValues: zip(ranked.photos, ranked.ranks))
                wholeQuery = wholeQuery.map { sums in
                    Dictionary(uniqueKeysWithValues: sums.compactMap { photo, sum in ranks[photo].map { (photo, sum + $0) } })
                } ?? ranks
            }
            let sums = try #require(wholeQuery)
            let expected = try Self.fts5(FTS5Ranking.expression(terms.keys), on: connection)
            #expect(sums.count == expected.count, "matches of q=\(q)")
            let exact = expected.allSatisfy { sums[$0.photo] == $0.rank }
            #expect(exact, "bm25 of q=\(q)")
        }
    }

    /// FTS5 reads every key as exactly one token, itself: the in-memory index's words are
    /// FTS5's tokens of the catalog's keys, and a query's keys are looked up as they are,
    /// so both must agree on what a token is. Checked on every word of the catalog and on
    /// keys of odd input (accents, other scripts, ligatures, digits).
    @Test func everyKeyIsOneFTS5TokenOfItself() throws {
        let catalog = try SharedCatalog.catalog()
        let connection = try SQLiteConnection(path: ":memory:")
        try connection.execute(
            """
            CREATE VIRTUAL TABLE keys USING fts5(key, tokenize = 'unicode61 remove_diacritics 2');
            CREATE VIRTUAL TABLE temp.key_tokens USING fts5vocab(main, keys, instance);
            """)
        var keys = Set<String>()
        for photo in catalog.photos {
            for text in [photo.title, photo.folder, photo.text, photo.intersection, catalog.locations[photo.locationIndex].intersection] {
                for word in SearchWords.words(text ?? "") { keys.insert(SearchWords.key(word)) }
            }
        }
        let odd = "Ærøskøbing ÇAFÉ Œuvre ﬁnance Straße ẞ İstanbul ıi Ǆemal ᾧ ΣΊΣΥΦΟΣ Ⅻ ½ ２０２４ Ｔｏｋｙｏ 東京タワー ㄅ ñandú Łódź đak x²"
        let oddKeys = SearchWords.words(odd).map { SearchWords.key($0) }
        let all = keys.sorted() + oddKeys
        try connection.transaction {
            for (row, key) in all.enumerated() {
                try connection.execute("INSERT INTO keys (rowid, key) VALUES (?, ?)", [SQLiteValue(row), .text(key)])
            }
        }
        var tokens = [[String]](repeating: [], count: all.count)
        for (term, row) in try connection.query("SELECT term, doc FROM temp.key_tokens ORDER BY doc, offset", row: { ($0.text(0), $0.int(1)) }) {
            tokens[row].append(term)
        }
        let differing = all.indices.filter { tokens[$0] != [all[$0]] }.map { "\(all[$0]) → \(tokens[$0])" }
        #expect(differing.isEmpty, "\(differing.prefix(20))")

        // And the index holds exactly the catalog's keys.
        let catalogDatabase = try SQLiteConnection(path: try SharedCatalog.path(), mode: .readOnly)
        let vocabulary = try catalogDatabase.query("SELECT word FROM photo_search_words") { $0.text(0) }
        #expect(vocabulary.count == keys.count)
        #expect(Set(vocabulary) == keys)
    }
}
