import SQLite

/// Derives the per-word postings of `GET /search` (`SearchIndex`) from FTS5's own index,
/// at the end of the catalog build, in its transaction: the server then ranks every
/// query in memory, exactly as FTS5's `bm25()` would, and never reads SQLite to search.
///
/// Reading the tokens back from FTS5 (https://sqlite.org/fts5.html#the_fts5vocab_virtual_table_module)
/// rather than splitting the text again keeps FTS5's tokenizer the one definition of a
/// word's token. The `instance` table lists every hit, ordered by word, photo, column
/// and offset; the `row` table every word, in the same order, with its number of hits,
/// so the hits are cut into words by count and the word's text is read once per word,
/// not once per hit (reading it per hit tripled the scan). The photo counts of both
/// tables are checked against each other.
enum SearchPostingsWriter {
    static func write(connection: SQLiteConnection, path: String, photoCount: Int) throws {
        func fail(_ reason: String) -> CatalogError { .malformedDatabase(path: path, reason: reason) }
        // In `temp`: they vanish with the build's connection, and never reach the file.
        try connection.execute(
            """
            CREATE VIRTUAL TABLE temp.photo_search_words_vocabulary USING fts5vocab(main, photo_search, row);
            CREATE VIRTUAL TABLE temp.photo_search_hits USING fts5vocab(main, photo_search, instance);
            """)
        let words = try connection.query("SELECT term, doc, cnt FROM temp.photo_search_words_vocabulary") {
            (word: $0.text(0), photos: $0.int(1), hits: $0.int(2))
        }
        let weight = SearchIndex.columnWeights.map { "WHEN '\($0.column)' THEN \($0.weight)" }.joined(separator: " ")
        let hits = try connection.prepare("SELECT doc, CASE col \(weight) ELSE 0 END FROM temp.photo_search_hits")
        let insertWord = try connection.prepare(
            "INSERT INTO photo_search_words (word, photos, frequencies) VALUES (?, ?, ?)")
        var lengths = [Int](repeating: 0, count: photoCount)
        for word in words {
            var photos: [UInt8] = []
            var frequencies: [UInt8] = []
            photos.reserveCapacity(word.photos * 4)
            frequencies.reserveCapacity(word.photos * 4)
            var photo = -1
            var frequency = 0
            for _ in 0..<word.hits {
                guard try hits.step() else { throw fail("fewer search hits than words count") }
                let hitPhoto = hits.int(0)
                let hitWeight = hits.int(1)
                guard lengths.indices.contains(hitPhoto), hitPhoto >= photo, hitWeight > 0 else {
                    throw fail("search hit of word \(word.word) in photo \(hitPhoto) is out of order")
                }
                lengths[hitPhoto] += 1
                if hitPhoto != photo {
                    if photo >= 0 { Self.append(photo, frequency, to: &photos, &frequencies) }
                    photo = hitPhoto
                    frequency = 0
                }
                frequency += hitWeight
            }
            if photo >= 0 { Self.append(photo, frequency, to: &photos, &frequencies) }
            guard photos.count == word.photos * 4 else {
                throw fail("word \(word.word) is in \(photos.count / 4) photos, FTS5 counts \(word.photos)")
            }
            try insertWord.bind([.text(word.word), .blob(photos), .blob(frequencies)])
            try insertWord.step()
        }
        guard try !hits.step() else { throw fail("more search hits than words count") }
        let insertLength = try connection.prepare("INSERT INTO photo_search_lengths (photo, tokens) VALUES (?, ?)")
        for (photo, tokens) in lengths.enumerated() {
            try insertLength.bind([SQLiteValue(photo), SQLiteValue(tokens)])
            try insertLength.step()
        }
    }

    private static func append(_ photo: Int, _ frequency: Int, to photos: inout [UInt8], _ frequencies: inout [UInt8]) {
        withUnsafeBytes(of: UInt32(photo).littleEndian) { photos.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(clamping: frequency).littleEndian) { frequencies.append(contentsOf: $0) }
    }
}
