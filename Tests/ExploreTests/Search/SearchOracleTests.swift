import Catalog
import Foundation
import SQLite
import Testing
import TestSupport

/// `GET /search` against the brute-force oracle over the real catalog, for words drawn
/// at random (seeded) from the photos' own text.
@Suite struct SearchOracleTests {
    /// One random query: 1 or 2 words of one photo, the last cut to a prefix half the
    /// time, in a random letter case, sometimes with accents added.
    static func randomQuery(_ oracle: SearchOracle, _ generator: inout SeededGenerator) -> String {
        let catalog = oracle.catalog
        var words: [String] = []
        while words.isEmpty {
            let photo = catalog.photos[Int.random(in: 0..<catalog.photos.count, using: &generator)]
            let text = [photo.title, photo.folder, photo.text, photo.intersection].compactMap { $0 }.joined(separator: " ")
            words = text.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
        }
        let first = Int.random(in: 0..<words.count, using: &generator)
        var chosen = [words[first]]
        if Bool.random(using: &generator), first + 1 < words.count { chosen.append(words[first + 1]) }
        if Bool.random(using: &generator) {
            let last = chosen.removeLast()
            chosen.append(String(last.prefix(Int.random(in: 3...5, using: &generator))))
        }
        return chosen.map { word in
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: return word.uppercased()
            case 1: return word.lowercased()
            case 2: return String(word.map { accented[$0] ?? $0 })
            default: return word
            }
        }.joined(separator: Bool.random(using: &generator) ? " " : " — ")
    }

    /// Letters with an accent that folding removes again.
    static let accented: [Character: Character] = ["a": "á", "e": "é", "o": "ô", "u": "ü", "n": "ñ", "c": "ç", "E": "É"]

    static func randomFilter(_ generator: inout SeededGenerator) -> (PhotoFilter, [(String, String)]) {
        var filter = PhotoFilter()
        var items: [(String, String)] = []
        if Bool.random(using: &generator) {
            let borough = Borough.allCases.randomElement(using: &generator)!
            filter.borough = borough
            items.append(("borough", Bool.random(using: &generator) ? borough.rawValue : borough.rawValue.uppercased()))
        }
        if Int.random(in: 0..<3, using: &generator) == 0 {
            let from = Int.random(in: 1870...1940, using: &generator)
            filter.fromYear = from
            items.append(("from", String(from)))
            if Bool.random(using: &generator) {
                let to = from + Int.random(in: 0...30, using: &generator)
                filter.toYear = to
                items.append(("to", String(to)))
            }
        }
        if Int.random(in: 0..<4, using: &generator) == 0 {
            // A common topic or any, in a random letter case.
            let topics = try! TopicOracle.load().topics
            let number = Bool.random(using: &generator)
                ? Int.random(in: 0..<20, using: &generator) : Int.random(in: 0..<topics.count, using: &generator)
            filter.topic = number
            let name = topics[number].name
            items.append(("topic", Bool.random(using: &generator) ? name.uppercased() : name.lowercased()))
        }
        return (filter, items)
    }

    /// Queries matching more photos than this are paged only partly (`pageLimit`), to keep
    /// the tests quick in debug builds; smaller ones to the end.
    static let fullPagingLimit = 2500

    /// Pages through the results of `query` with `limit`, to the end or for `maxPages`;
    /// checks each page's shape.
    static func allPages(_ query: [(String, String)], limit: Int, maxPages: Int = .max) throws -> (total: Int, results: [[String: Any]]) {
        var results: [[String: Any]] = []
        var cursor: String?
        var total = -1
        var pages = 0
        repeat {
            pages += 1
            var items = query + [("limit", String(limit))]
            if let cursor { items.append(("cursor", cursor)) }
            let page = try SearchHarness.get(items).object()
            let pageTotal = try #require(page["total"] as? Int)
            if total >= 0 { #expect(pageTotal == total, "total changed between pages of \(query)") }
            total = pageTotal
            let pageResults = try #require(page["results"] as? [[String: Any]])
            results += pageResults
            cursor = page["nextCursor"] as? String
            if cursor != nil { #expect(pageResults.count == limit, "a page before the last is short: \(query)") }
        } while cursor != nil && results.count <= total && pages < maxPages
        if pages < maxPages { #expect(results.count == total, "paging \(query) ended early") }
        return (total, results)
    }

    @Test(arguments: 0..<6)
    func randomQueriesMatchTheOracle(seed: UInt64) throws {
        let oracle = try SearchHarness.oracle()
        var generator = SeededGenerator(seed: 0x5EA2C4 + seed)
        for _ in 0..<8 {
            let q = Self.randomQuery(oracle, &generator)
            let (filter, filterItems) = Self.randomFilter(&generator)
            let expected = oracle.matches(q, filter: filter)
            let isLarge = expected.count > Self.fullPagingLimit
            let limit = isLarge ? 100 : Int.random(in: 1...40, using: &generator)
            let (total, results) = try Self.allPages([("q", q)] + filterItems, limit: limit, maxPages: isLarge ? 4 : .max)
            let ids = results.compactMap { $0["photoID"] as? String }
            #expect(total == expected.count, "total of q=\(q) \(filterItems)")
            #expect(ids.count == Set(ids).count, "a photo repeated for q=\(q)")
            let expectedIDs = Set(expected.map { oracle.catalog.photos[$0].photoID })
            if isLarge {
                #expect(Set(ids).isSubset(of: expectedIDs), "q=\(q) \(filterItems)")
            } else {
                #expect(Set(ids) == expectedIDs, "q=\(q) \(filterItems): \(Set(ids).symmetricDifference(expectedIDs).prefix(5))")
            }
            #expect(results.allSatisfy { $0["distanceMeters"] == nil })
            // The order does not depend on the page size.
            if total > 1 {
                let (_, bigger) = try Self.allPages([("q", q)] + filterItems, limit: min(100, total), maxPages: 1)
                let prefix = bigger.prefix(100).compactMap { $0["photoID"] as? String }
                #expect(Array(ids.prefix(prefix.count)) == prefix, "order of q=\(q) depends on limit")
            }
        }
    }

    @Test(arguments: 0..<4)
    func nearestFirstMatchesTheOracle(seed: UInt64) throws {
        let oracle = try SearchHarness.oracle()
        let catalog = oracle.catalog
        var generator = SeededGenerator(seed: 0xD157 + seed)
        for _ in 0..<6 {
            let q = Self.randomQuery(oracle, &generator)
            let (filter, filterItems) = Self.randomFilter(&generator)
            let latitude = Double.random(in: 40.5...40.9, using: &generator)
            let longitude = Double.random(in: -74.25 ... -73.7, using: &generator)
            let expected = oracle.matches(q, filter: filter).map { photo in
                let location = catalog.locations[catalog.photos[photo].locationIndex]
                return (
                    id: catalog.photos[photo].photoID,
                    distance: SearchOracle.distance(latitude, longitude, location.latitude, location.longitude)
                )
            }.sorted { $0.distance != $1.distance ? $0.distance < $1.distance : $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
            let isLarge = expected.count > Self.fullPagingLimit
            let limit = isLarge ? 100 : Int.random(in: 1...40, using: &generator)
            let query = [("q", q), ("lat", String(latitude)), ("lon", String(longitude))] + filterItems
            let (total, results) = try Self.allPages(query, limit: limit, maxPages: isLarge ? 4 : .max)
            #expect(total == expected.count, "total of q=\(q)")
            let ids = results.compactMap { $0["photoID"] as? String }
            #expect(ids == expected.prefix(ids.count).map(\.id), "order of q=\(q) near \(latitude),\(longitude)")
            for (result, want) in zip(results, expected) {
                let distance = try #require(result["distanceMeters"] as? Double)
                #expect(abs(distance - want.distance) <= 0.006, "distance of \(want.id)")
            }
        }
    }

    /// The relevance order is FTS5's own `bm25()` of the whole query (the server adds the
    /// ranks of its phrases instead), ties by `photoID`.
    @Test func relevanceIsTheBM25OfTheWholeQuery() throws {
        let oracle = try SearchHarness.oracle()
        let connection = try SQLiteConnection(path: try SharedCatalog.path(), mode: .readOnly)
        let sql = FTS5Ranking.query
        var generator = SeededGenerator(seed: 0xB125)
        for _ in 0..<12 {
            let q = Self.randomQuery(oracle, &generator)
            let keys = SearchOracle.foldedWords(q)
            let expression = FTS5Ranking.expression(keys)
            let expected = try connection.query(sql, [.text(expression)]) { row in
                (id: oracle.catalog.photos[row.int(0)].photoID, rank: row.double(1))
            }.sorted { $0.rank != $1.rank ? $0.rank < $1.rank : $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
            let page = try SearchHarness.get([("q", q), ("limit", "100")]).object()
            let ids = try #require(page["results"] as? [[String: Any]]).compactMap { $0["photoID"] as? String }
            #expect(ids == expected.prefix(100).map(\.id), "q=\(q)")
        }
    }

    /// Every result carries its location's members, and the location's intersection.
    @Test func resultsCarryTheirLocation() throws {
        let catalog = try SharedCatalog.catalog()
        let page = try SearchHarness.get([("q", "flatiron"), ("limit", "100")]).object()
        let results = try #require(page["results"] as? [[String: Any]])
        #expect(!results.isEmpty)
        for result in results {
            let photoID = try #require(result["photoID"] as? String)
            let index = try #require(catalog.photoIndex(photoID: photoID))
            let photo = catalog.photos[index]
            let location = catalog.locations[photo.locationIndex]
            #expect(result["locationID"] as? String == location.locationID)
            #expect(result["latitude"] as? Double == location.latitude)
            #expect(result["longitude"] as? Double == location.longitude)
            #expect(result["borough"] as? String == location.borough?.rawValue)
            #expect(result["intersection"] as? String == location.intersection)
            #expect(result["thumbnailURL"] as? String == photo.thumbnailURL)
            #expect(result["width"] as? Int == photo.width)
        }
    }
}
