@testable import API
import Catalog
import Explore
import Gzip
import HTTPServer
import Testing
import TestSupport

/// The rendered answers `/clusters` keeps: a kept answer is the very answer a fresh
/// rendering gives, and the cache stays within its bytes.
@Suite struct ClusterResponseCacheTests {
    /// The handler's own response to a GET of `/clusters`: the kept storage and gzip
    /// variant the cache hands back, which the wire would not show.
    static func get(_ routes: ClusterRoutes, _ query: [(String, String)]) throws -> HTTPResponse {
        try routes.clusters(
            HTTPRequest(method: .get, target: "/clusters", path: "/clusters", queryItems: query.map { (name: $0.0, value: $0.1) }))
    }

    /// A query as the route parses it, and as its parameters.
    struct Asked {
        let query: ClusterQuery
        let parameters: [(String, String)]

        init(_ query: ClusterOracle.Query) {
            self.query = ClusterQuery(
                south: query.south, west: query.west, north: query.north, east: query.east, zoom: query.zoom,
                limit: query.limit,
                filter: PhotoFilter(fromYear: query.fromYear, toYear: query.toYear, topic: query.topic, borough: query.borough))
            var parameters = [
                ("south", "\(query.south)"), ("west", "\(query.west)"), ("north", "\(query.north)"),
                ("east", "\(query.east)"), ("zoom", "\(query.zoom)"), ("limit", "\(query.limit)"),
            ]
            if let from = query.fromYear { parameters.append(("from", "\(from)")) }
            if let to = query.toYear { parameters.append(("to", "\(to)")) }
            if let borough = query.borough { parameters.append(("borough", borough.rawValue)) }
            if let topic = query.topic { parameters.append(("topic", (try! TopicOracle.load()).topics[topic].name.uppercased())) }
            self.parameters = parameters
        }
    }

    /// Seeded random queries asked again and again of a cache small enough to evict:
    /// every answer, kept or not, has the body, ETag and gzip of a rendering afresh,
    /// and the cache never holds more than its bound.
    @Test func keptAnswersEqualFreshOnes() throws {
        let catalog = try ClusterFixture.load().catalog
        let routes = ClusterRoutes(catalog: catalog, cacheCapacity: 400 << 10)
        var generator = SeededGenerator(seed: 0xCAC4_E011)
        var asked = (0..<30).map { _ in Asked(ClusterOracle.Query.random(using: &generator, catalog: catalog)) }
        // Spellings the ETag tells apart although the numbers are equal: `-0` and `0`.
        for west in [0.0, -0.0] {
            asked.append(Asked(ClusterOracle.Query(
                south: -1, west: west, north: 1, east: 1, zoom: 3, limit: 500, fromYear: nil, toYear: nil, borough: nil)))
        }
        // A kept answer is sent from the very bytes kept: the same storage as last time.
        var lastBodies: [Int: [UInt8]] = [:]
        var hits = 0
        for _ in 0..<120 {
            let index = Int.random(in: asked.indices, using: &generator)
            let expected = routes.render(asked[index].query)
            let answer = try Self.get(routes, asked[index].parameters)
            if let last = lastBodies[index], Self.address(last) == Self.address(answer.body) { hits += 1 }
            lastBodies[index] = answer.body
            #expect(answer.status == .ok && answer.headers["Content-Type"] == HTTPResponse.jsonContentType)
            #expect(answer.body == expected.body, "\(asked[index].parameters)")
            #expect(answer.etag == expected.etag, "\(asked[index].parameters)")
            if Bool.random(using: &generator) {
                let gzipped = try #require(answer.gzippedBody?())
                #expect(gzipped == (try Gzip.compress(expected.body)), "\(asked[index].parameters)")
                #expect(try #require(answer.gzippedBody?()) == gzipped)
            }
            #expect(routes.cache.storedBytes <= routes.cache.capacity)
        }
        #expect(hits > 30 && routes.cache.count > 1)
        for spelled in asked.suffix(2) {
            #expect(try Self.get(routes, spelled.parameters).etag == routes.render(spelled.query).etag)
        }
    }

    static func address(_ bytes: [UInt8]) -> UnsafeRawPointer? {
        bytes.withUnsafeBytes { $0.baseAddress }
    }

    static func answer(_ size: Int, _ tag: Int) -> ClusterResponseCache.Answer {
        ClusterResponseCache.Answer(body: [UInt8](repeating: UInt8(truncatingIfNeeded: tag), count: size), etag: "\"\(tag)\"")
    }

    static func key(_ number: Int) -> ClusterResponseCache.Key {
        ClusterResponseCache.Key(ClusterQuery(south: Double(number), west: 0, north: 90, east: 1, zoom: 3, limit: 500))
    }

    /// Answers and gzip variants of random sizes: the bytes held never exceed the bound,
    /// a held answer is returned without rendering, one too large is never kept, and an
    /// answer used between every insertion survives (the clock's second chance).
    @Test func staysWithinItsBoundAndKeepsWhatIsUsed() throws {
        let cache = ClusterResponseCache(capacity: 64 << 10)
        var generator = SeededGenerator(seed: 0xB0_0D)
        let favourite = Self.key(-1)
        _ = cache.answer(favourite) { Self.answer(3000, -1) }
        for number in 0..<400 {
            let size = Int.random(in: 0...12_000, using: &generator)
            let key = Self.key(Int.random(in: 0..<60, using: &generator))
            var rendered = false
            let answer = cache.answer(key) {
                rendered = true
                return Self.answer(size, number)
            }
            if !rendered { #expect(answer.etag != "\"\(number)\"") }
            if Bool.random(using: &generator) { _ = cache.gzipped(key, answer) }
            var favouriteRendered = false
            _ = cache.answer(favourite) {
                favouriteRendered = true
                return Self.answer(3000, -1)
            }
            #expect(!favouriteRendered, "evicted at \(number)")
            #expect(cache.storedBytes <= cache.capacity)
        }
        #expect(cache.count > 4)
        let huge = Self.key(1000)
        _ = cache.answer(huge) { Self.answer(cache.capacity / 8 + 1, 0) }
        var renderedAgain = false
        _ = cache.answer(huge) {
            renderedAgain = true
            return Self.answer(cache.capacity / 8 + 1, 0)
        }
        #expect(renderedAgain)
    }
}
