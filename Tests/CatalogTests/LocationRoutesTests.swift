import API
import Catalog
import Foundation
import HTTPServer
import Testing
import TestSupport

/// `GET /locations/{locationID}` through the whole request pipeline, against a
/// brute-force reading of `Data/` (`Oracle`).
@Suite struct LocationRoutesTests {
    static func client() throws -> InMemoryHTTPClient {
        let (_, router, _) = try CatalogRoutesTests.routes.get()
        return InMemoryHTTPClient(router: router)
    }

    /// Pages through a location with `limit` and the year filter to the end; returns the
    /// photo IDs in order, after checking every page's shape against the oracle's location.
    static func pageThrough(
        _ location: Oracle.Location, limit: Int, from: Int?, to: Int?, client: InMemoryHTTPClient
    ) throws -> [String] {
        let expectedCount = Oracle.matching(location, PhotoFilter(fromYear: from, toYear: to)).count
        var filters = "limit=\(limit)"
        if let from { filters += "&from=\(from)" }
        if let to { filters += "&to=\(to)" }
        var ids: [String] = []
        var cursor: String?
        repeat {
            let target = "/locations/\(location.id)?\(filters)" + (cursor.map { "&cursor=\($0)" } ?? "")
            let response = try client.request("GET", target)
            try #require(response.status == 200, "\(target): \(response.bodyText)")
            let json = try response.object()
            #expect(json["locationID"] as? String == location.id)
            #expect(json["latitude"] as? Double == location.latitude && json["longitude"] as? Double == location.longitude)
            #expect(json["borough"] as? String == location.borough?.rawValue)
            #expect(json["intersection"] as? String == Oracle.intersection(location.photos))
            #expect(json["photoCount"] as? Int == expectedCount, "\(target)")
            let photos = try #require(json["photos"] as? [[String: Any]])
            cursor = json["nextCursor"] as? String
            // Every page holds `limit` photos except the last.
            if cursor != nil { #expect(photos.count == limit, "\(target)") } else { #expect(photos.count <= limit) }
            ids += photos.compactMap { $0["photoID"] as? String }
            #expect(ids.count <= expectedCount, "\(target): more photos than match")
        } while cursor != nil && ids.count <= expectedCount
        return ids
    }

    @Test func everyLargeLocationAndASampleOfOthersPagedToTheEnd() throws {
        let oracle = try CatalogFixture.load().oracle
        let client = try Self.client()
        let large = oracle.locations.filter { $0.photos.count > 50 }
        #expect(large.count == 76)
        var random = SeededGenerator(seed: 31)
        let others = (0..<150).map { _ in oracle.locations.randomElement(using: &random)! }
        let yearRanges: [(Int?, Int?)] = [(nil, nil), (1900, 1920), (nil, 1899), (1930, nil), (1920, 1920), (2000, 2010)]
        for location in large + others {
            let limit = location.photos.count > 50 ? [17, 50, 100].randomElement(using: &random)! : Int.random(in: 1...100, using: &random)
            let (from, to) = yearRanges.randomElement(using: &random)!
            let expected = Oracle.matching(location, PhotoFilter(fromYear: from, toYear: to)).map(\.id)
            let ids = try Self.pageThrough(location, limit: limit, from: from, to: to, client: client)
            #expect(ids == expected, "\(location.id) limit \(limit) from \(from as Any) to \(to as Any)")
        }
    }

    @Test func theLargestLocationWithoutFiltersAtEveryLimitEdge() throws {
        let oracle = try CatalogFixture.load().oracle
        let client = try Self.client()
        let largest = try #require(oracle.locations.max { $0.photos.count < $1.photos.count })
        #expect(largest.photos.count == 671)
        for limit in [1, 61, 100] {
            #expect(try Self.pageThrough(largest, limit: limit, from: nil, to: nil, client: client) == largest.photos.map(\.id))
        }
        let first = try client.request("GET", "/locations/\(largest.id)").object()
        #expect((first["photos"] as? [Any])?.count == 50, "the default limit")
    }

    @Test func aLocationWithNoMatchingPhotoIsAnEmptyPage() throws {
        let oracle = try CatalogFixture.load().oracle
        let client = try Self.client()
        let location = try #require(oracle.locations.first)
        let response = try client.request("GET", "/locations/\(location.id)?from=9000")
        #expect(response.status == 200)
        let json = try response.object()
        #expect(json["photoCount"] as? Int == 0)
        #expect((json["photos"] as? [Any])?.isEmpty == true)
        #expect(json["nextCursor"] is NSNull)
    }

    @Test func onlyTheCatalogsOwnSpellingOfAnIDIsFound() throws {
        let client = try Self.client()
        let id = "40.802963,-73.963849"
        #expect(try client.request("GET", "/locations/\(id)").status == 200)
        #expect(try client.request("GET", "/locations/40.802963%2C-73.963849").status == 200, "%2C is a comma")
        #expect(try client.request("GET", "/locations/40.802963%2c-73.963849").status == 200)
        for other in [
            "40.80296,-73.963849", "40.8029630,-73.963849", "+40.802963,-73.963849", "40.802963,%20-73.963849",
            "40.802963;-73.963849", "40.802963,-73.963849,", "nowhere", "40.802963",
        ] {
            let response = try client.request("GET", "/locations/\(other)")
            #expect(response.status == 404, "\(other)")
            #expect(response.header("Content-Type") == "application/problem+json")
        }
    }

    @Test func etagRevalidationAndHead() throws {
        let client = try Self.client()
        let target = "/locations/40.802963,-73.963849?limit=20&from=1900"
        let first = try client.request("GET", target)
        let etag = try #require(first.header("ETag"))
        #expect(try client.request("GET", target).header("ETag") == etag, "stable")
        #expect(try client.request("GET", "/locations/40.802963,-73.963849?limit=21&from=1900").header("ETag") != etag)
        let notModified = try client.request("GET", target, headers: [("If-None-Match", etag)])
        #expect(notModified.status == 304 && notModified.body.isEmpty)
        let head = try client.request("HEAD", target)
        #expect(head.status == 200 && head.body.isEmpty && head.header("Content-Length") == String(first.body.count))
        let gzipped = try client.request("GET", target, headers: [("Accept-Encoding", "gzip")])
        #expect(gzipped.header("Content-Encoding") == "gzip")
        #expect(try gunzip(gzipped.body) == first.body)
    }

    /// Each case: a query and the parameter the 400 must name.
    static let badQueries: [(query: String, parameter: String)] = [
        ("limit=0", "limit"), ("limit=101", "limit"), ("limit=", "limit"), ("limit=ten", "limit"), ("limit=1.5", "limit"),
        ("limit=0x10", "limit"), ("limit=%D9%A4", "limit"), ("limit=5&limit=6", "limit"),
        ("from=", "from"), ("from=1e3", "from"), ("from=10000", "from"), ("to=-10000", "to"), ("to=19O0", "to"),
        ("from=1950&to=1900", "from"), ("from=1900&from=1901", "from"),
        ("cursor=", "cursor"), ("cursor=bogus", "cursor"), ("cursor=2.0000000000000000", "cursor"),
        ("cursor=-2.0000000000000000", "cursor"), ("cursor=a&cursor=b", "cursor"),
    ]

    @Test(arguments: badQueries) func badQueriesAreProblemsNamingTheParameter(query: String, parameter: String) throws {
        let client = try Self.client()
        let response = try client.request("GET", "/locations/40.802963,-73.963849?\(query)")
        #expect(response.status == 400, "\(query)")
        #expect(response.header("Content-Type") == "application/problem+json")
        #expect(response.problemDetail.contains("'\(parameter)'"), "\(query)")
    }

    @Test func aCursorIsValidOnlyForItsLocationAndFilters() throws {
        let client = try Self.client()
        let page = try client.request("GET", "/locations/40.802963,-73.963849?limit=10&from=1900").object()
        let cursor = try #require(page["nextCursor"] as? String)
        #expect(try client.request("GET", "/locations/40.802963,-73.963849?limit=10&from=1900&cursor=\(cursor)").status == 200)
        #expect(try client.request("GET", "/locations/40.802963,-73.963849?limit=99&from=1900&cursor=\(cursor)").status == 200,
            "the limit may change between pages")
        for other in [
            "/locations/40.802963,-73.963849?limit=10&cursor=\(cursor)",
            "/locations/40.802963,-73.963849?limit=10&from=1901&cursor=\(cursor)",
            "/locations/40.802963,-73.963849?limit=10&from=1900&to=1950&cursor=\(cursor)",
            "/locations/40.751921,-73.982033?limit=10&from=1900&cursor=\(cursor)",
        ] {
            let response = try client.request("GET", other)
            #expect(response.status == 400, "\(other)")
            #expect(response.bodyText.contains("cursor"))
        }
    }
}
