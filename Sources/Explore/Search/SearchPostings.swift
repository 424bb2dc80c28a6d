import Catalog
import Foundation
import SQLite

/// Every word of the catalog's search index with its postings (`SearchIndex`), loaded
/// into memory at start: the photos holding each word, with its column-weighted hits in
/// each, and every photo's length in tokens. From them it ranks a phrase (a word, or
/// every word with a prefix) exactly as FTS5's `bm25(photo_search, 10.0, 10.0, 4.0, 1.0)`
/// does, to the bit, so a search never reads SQLite.
///
/// FTS5's `bm25()` (sqlite's `ext/fts5/fts5_aux.c`, `fts5Bm25Function`) scores a row,
/// per phrase, from `f`, the phrase's hits in the row each weighted by its column,
/// summed, `D`, the row's tokens in all columns, and the phrase's IDF
/// `log((N - nHit + 0.5) / (nHit + 0.5))` (at least 1e-6), where `N` is the number of
/// rows and `nHit` the rows holding the phrase: `idf * (f * (k1 + 1)) / (f + k1 * (1 - b
/// + b * D / avgdl))`, negated, so smaller is more relevant. A prefix phrase's hits are
/// those of every word with the prefix, so its `f` is their sum and `nHit` the photos
/// holding any of them. Hit weights are small integers, so every `f` is an exact sum in
/// any order, and each rank is computed with the very operations, in the same order, as
/// FTS5's C code: the results are the same doubles (the tests compare them with `==`).
///
/// `Sendable`: immutable once loaded.
struct SearchPostings: Sendable {
    /// BM25's constants, as `fts5Bm25Function` fixes them.
    static let k1 = 1.2
    static let b = 0.75

    /// The number of rows of the index: every photo has one.
    let photoCount: Int
    /// The words' UTF-8 bytes, one after the other, in byte order (the BINARY collation
    /// of `photo_search_words`' key), so the words with a prefix are one range.
    private let wordBytes: [UInt8]
    /// Word `i` is `wordBytes[wordStarts[i]..<wordStarts[i + 1]]`.
    private let wordStarts: [Int]
    /// Word `i`'s postings are `postingPhotos[postingStarts[i]..<postingStarts[i + 1]]`.
    private let postingStarts: [Int]
    /// Photos (indices into `PhotoCatalog.photos`), ascending within each word.
    private let postingPhotos: [Int32]
    /// The word's column-weighted hits in the photo of the same posting.
    private let postingFrequencies: [UInt32]
    /// Each photo's `D`, its tokens in all columns.
    private let tokens: [Int]
    /// Each photo's `k1 * (1 - b + b * D / avgdl)`, the part of the denominator that only
    /// depends on the photo, computed once as `fts5Bm25Function` computes it per row.
    private let lengthNorms: [Double]

    /// Loads the postings of the catalog database at `path`, written with the catalog
    /// of `photoCount` photos.
    init(path: String, photoCount: Int) throws {
        func fail(_ reason: String) -> CatalogError { .malformedDatabase(path: path, reason: reason) }
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        self.photoCount = photoCount

        var tokens = [Int](repeating: -1, count: photoCount)
        let lengths = try connection.prepare("SELECT photo, tokens FROM photo_search_lengths")
        while try lengths.step() {
            let photo = lengths.int(0)
            guard tokens.indices.contains(photo) else { throw fail("search length of photo \(photo), which does not exist") }
            tokens[photo] = lengths.int(1)
        }
        guard !tokens.contains(where: { $0 < 0 }) else { throw fail("a photo has no search length") }
        self.tokens = tokens
        lengthNorms = Self.lengthNorms(tokens)

        var wordBytes: [UInt8] = []
        var wordStarts = [0]
        var postingStarts = [0]
        var postingPhotos: [Int32] = []
        var postingFrequencies: [UInt32] = []
        let words = try connection.prepare("SELECT word, photos, frequencies FROM photo_search_words ORDER BY word")
        while try words.step() {
            wordBytes.append(contentsOf: words.text(0).utf8)
            wordStarts.append(wordBytes.count)
            let photos = words.blob(1)
            let frequencies = words.blob(2)
            guard photos.count == frequencies.count, photos.count % 4 == 0 else {
                throw fail("the postings of \(words.text(0)) are malformed")
            }
            func number(_ bytes: [UInt8], at offset: Int) -> UInt32 {
                UInt32(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) })
            }
            var previous = -1
            for offset in stride(from: 0, to: photos.count, by: 4) {
                let photo = Int(number(photos, at: offset))
                guard photo > previous, photo < photoCount else {
                    throw fail("the postings of \(words.text(0)) are out of order")
                }
                previous = photo
                postingPhotos.append(Int32(photo))
                postingFrequencies.append(number(frequencies, at: offset))
            }
            postingStarts.append(postingPhotos.count)
        }
        self.wordBytes = wordBytes
        self.wordStarts = wordStarts
        self.postingStarts = postingStarts
        self.postingPhotos = postingPhotos
        self.postingFrequencies = postingFrequencies
    }

    private init(
        wordBytes: [UInt8], wordStarts: [Int], postingStarts: [Int], postingPhotos: [Int32], postingFrequencies: [UInt32],
        tokens: [Int]
    ) {
        photoCount = tokens.count
        self.wordBytes = wordBytes
        self.wordStarts = wordStarts
        self.postingStarts = postingStarts
        self.postingPhotos = postingPhotos
        self.postingFrequencies = postingFrequencies
        self.tokens = tokens
        lengthNorms = Self.lengthNorms(tokens)
    }

    /// Every photo's `k1 * (1 - b + b * D / avgdl)`, as `fts5Bm25Function` computes it.
    private static func lengthNorms(_ tokens: [Int]) -> [Double] {
        let averageLength = Double(tokens.reduce(0, +)) / Double(tokens.count)
        let (k1, b) = (Self.k1, Self.b)
        return tokens.map { k1 * (1 - b + b * Double($0) / averageLength) }
    }

    /// The postings of a generation, from these, the shipped catalog's: the photos
    /// renumbered in the generation's order, and the `intersection` column of each photo
    /// whose place changed (`SearchIndex.placeColumn`: its own label or its location's)
    /// read again: its old words' hits taken out, its new words' put in, at that column's
    /// weight, and its length changed by as many tokens. So they are the postings an
    /// import of the corrected source would write, and rank to the same doubles.
    ///
    /// A column's tokens are its keys as `SearchWords.indexedText` joins them by spaces,
    /// which is how FTS5's tokenizer splits them at import (`SearchIndex`).
    /// - Throws: `SearchPostingsError` when a word's hits would fall below zero: the
    ///   shipped postings and the catalog disagree about a photo's place.
    func corrected(for catalog: PhotoCatalog) throws -> SearchPostings {
        let shipped = catalog.shipped
        var generationIndices = [Int32](repeating: 0, count: photoCount)
        var renumbered = false
        for photo in catalog.photos.indices {
            let shippedPhoto = catalog.shippedPhotoIndex(photo)
            generationIndices[shippedPhoto] = Int32(photo)
            if shippedPhoto != photo { renumbered = true }
        }
        let weight = Int64(SearchIndex.columnWeights[0].weight)
        /// Per word, per shipped photo, the change of its weighted hits.
        var changes: [String: [Int32: Int64]] = [:]
        var tokens = self.tokens
        for photo in catalog.photos.indices {
            let shippedPhoto = catalog.shippedPhotoIndex(photo)
            let before = shipped.photos[shippedPhoto]
            let after = catalog.photos[photo]
            guard before.intersection != after.intersection
                || shipped.locations[before.locationIndex].intersection != catalog.locations[after.locationIndex].intersection
            else { continue }
            for (text, sign) in [(shipped.searchedPlace(ofPhoto: shippedPhoto), -1 as Int64), (catalog.searchedPlace(ofPhoto: photo), 1)] {
                for word in text.split(separator: " ") {
                    changes[String(word), default: [:]][Int32(shippedPhoto), default: 0] += sign * weight
                    tokens[shippedPhoto] += Int(sign)
                }
            }
        }
        guard renumbered || !changes.isEmpty else { return self }

        var result = (
            wordBytes: [UInt8](), wordStarts: [0], postingStarts: [0], photos: [Int32](), frequencies: [UInt32]()
        )
        result.wordBytes.reserveCapacity(wordBytes.count)
        result.photos.reserveCapacity(postingPhotos.count)
        result.frequencies.reserveCapacity(postingFrequencies.count)
        /// Appends a word and its postings (shipped photos and their hits), renumbered and
        /// in photo order; a word left in no photo is left out, as FTS5 would.
        func append(word: some Collection<UInt8>, _ postings: [(photo: Int32, frequency: UInt32)]) {
            guard !postings.isEmpty else { return }
            result.wordBytes += word
            result.wordStarts.append(result.wordBytes.count)
            var renumbered = postings.map { (photo: generationIndices[Int($0.photo)], frequency: $0.frequency) }
            if zip(renumbered, renumbered.dropFirst()).contains(where: { $0.photo > $1.photo }) {
                renumbered.sort { $0.photo < $1.photo }
            }
            for posting in renumbered {
                result.photos.append(posting.photo)
                result.frequencies.append(posting.frequency)
            }
            result.postingStarts.append(result.photos.count)
        }
        /// A word's postings with its changes applied.
        func applying(_ change: [Int32: Int64], to postings: [(photo: Int32, frequency: UInt32)], word: String) throws
            -> [(photo: Int32, frequency: UInt32)]
        {
            var frequencies = Dictionary(uniqueKeysWithValues: postings.map { ($0.photo, Int64($0.frequency)) })
            for (photo, difference) in change { frequencies[photo, default: 0] += difference }
            guard frequencies.values.allSatisfy({ $0 >= 0 }) else { throw SearchPostingsError.negativeHits(word: word) }
            return frequencies.filter { $0.value > 0 }.map { (photo: $0.key, frequency: UInt32($0.value)) }
        }
        // Words no shipped photo has, merged in at their place in byte order.
        let newWords = changes.keys.filter { words(SearchPhrase(key: $0, isPrefix: false)).isEmpty }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var nextNewWord = 0
        for index in 0..<(wordStarts.count - 1) {
            let bytes = word(index)
            while nextNewWord < newWords.count, newWords[nextNewWord].utf8.lexicographicallyPrecedes(bytes) {
                let newWord = newWords[nextNewWord]
                append(word: newWord.utf8, try applying(changes[newWord]!, to: [], word: newWord))
                nextNewWord += 1
            }
            let postings = (postingStarts[index]..<postingStarts[index + 1]).map {
                (photo: postingPhotos[$0], frequency: postingFrequencies[$0])
            }
            let key = String(decoding: bytes, as: UTF8.self)
            append(word: bytes, try changes[key].map { try applying($0, to: postings, word: key) } ?? postings)
        }
        for newWord in newWords[nextNewWord...] {
            append(word: newWord.utf8, try applying(changes[newWord]!, to: [], word: newWord))
        }
        return SearchPostings(
            wordBytes: result.wordBytes, wordStarts: result.wordStarts, postingStarts: result.postingStarts,
            postingPhotos: result.photos, postingFrequencies: result.frequencies,
            tokens: catalog.photos.indices.map { tokens[catalog.shippedPhotoIndex($0)] })
    }

    /// The words a phrase matches, as a range of word numbers: `key` itself, or with
    /// `prefix` every word that starts with it.
    func words(_ phrase: SearchPhrase) -> Range<Int> {
        let key = Array(phrase.key.utf8)
        let count = wordStarts.count - 1
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if word(middle).lexicographicallyPrecedes(key) { low = middle + 1 } else { high = middle }
        }
        let first = low
        guard phrase.isPrefix else {
            return first < count && word(first).elementsEqual(key) ? first..<(first + 1) : first..<first
        }
        high = count
        while low < high {
            let middle = (low + high) / 2
            if word(middle).starts(with: key) { low = middle + 1 } else { high = middle }
        }
        return first..<low
    }

    /// How many postings `words` hold: what ranking them costs.
    func postingCount(_ words: Range<Int>) -> Int {
        postingStarts[words.upperBound] - postingStarts[words.lowerBound]
    }

    /// The photos holding any of `words`, ascending, and the phrase's `bm25()` rank in each.
    func ranks(_ words: Range<Int>) -> (photos: [Int32], ranks: [Double]) {
        let postings = postingStarts[words.lowerBound]..<postingStarts[words.upperBound]
        var photos: [Int32]
        var frequencies: [UInt32]
        if words.count == 1 {
            photos = Array(postingPhotos[postings])
            frequencies = Array(postingFrequencies[postings])
        } else if postings.count <= photoCount / 16 {
            // Few postings: sorted by photo (in the high bits), then runs summed.
            var packed = postings.map { UInt64(UInt32(postingPhotos[$0])) << 32 | UInt64(postingFrequencies[$0]) }
            packed.sort()
            photos = []
            frequencies = []
            for entry in packed {
                let photo = Int32(truncatingIfNeeded: entry >> 32)
                let frequency = UInt32(truncatingIfNeeded: entry)
                if photos.last == photo {
                    frequencies[frequencies.count - 1] += frequency
                } else {
                    photos.append(photo)
                    frequencies.append(frequency)
                }
            }
        } else {
            // Many: summed in one array over every photo, then read in photo order.
            var sums = [UInt32](repeating: 0, count: photoCount)
            for posting in postings { sums[Int(postingPhotos[posting])] += postingFrequencies[posting] }
            photos = []
            frequencies = []
            for (photo, sum) in sums.enumerated() where sum > 0 {
                photos.append(Int32(photo))
                frequencies.append(sum)
            }
        }
        let hits = photos.count
        var idf = log((Double(photoCount - hits) + 0.5) / (Double(hits) + 0.5))
        if idf <= 0.0 { idf = 1e-6 }
        let k1 = Self.k1
        var ranks = [Double](repeating: 0, count: hits)
        for index in 0..<hits {
            let frequency = Double(frequencies[index])
            let score = idf * ((frequency * (k1 + 1.0)) / (frequency + lengthNorms[Int(photos[index])]))
            ranks[index] = -1.0 * score
        }
        return (photos, ranks)
    }

    private func word(_ index: Int) -> ArraySlice<UInt8> {
        wordBytes[wordStarts[index]..<wordStarts[index + 1]]
    }
}
