import Catalog
import Explore
import Foundation
import SQLite
import Testing
import TestSupport

/// `GET /search` over a socket, through the whole server: ETag and 304, gzip, HEAD,
/// problem details; and the catalog build that carries the search index.
@Suite struct SearchEndpointTests {
    @Test func searchThroughTheStackHasETagGzipAndHead() throws {
        let app = try TestApplication()
        let client = try app.connect()
        let target = "/search?q=Broadway%20%26%2042nd&limit=30"
        let plain = try client.request("GET", target)
        #expect(plain.status == 200)
        #expect(plain.header("Content-Type") == "application/json; charset=utf-8")
        let json = try #require(JSONSerialization.jsonObject(with: Data(plain.body)) as? [String: Any])
        let results = try #require(json["results"] as? [[String: Any]])
        #expect(results.count == 30)
        #expect((json["total"] as? Int ?? 0) > 30)
        #expect(json["nextCursor"] is String)
        let etag = try #require(plain.header("ETag"))

        let revalidated = try client.request("GET", target, headers: [("If-None-Match", etag)])
        #expect(revalidated.status == 304)
        #expect(revalidated.body.isEmpty)
        let otherPage = try client.request("GET", "/search?q=broadway%2042nd&limit=31", headers: [("If-None-Match", etag)])
        #expect(otherPage.status == 200)

        let compressed = try client.request("GET", target, headers: [("Accept-Encoding", "gzip")])
        #expect(compressed.header("Content-Encoding") == "gzip")
        #expect(compressed.header("Vary")?.contains("Accept-Encoding") == true)
        let decompressedMatches = try gunzip(compressed.body) == plain.body
        #expect(decompressedMatches)

        let head = try client.request("HEAD", target)
        #expect(head.status == 200)
        #expect(head.header("Content-Length") == String(plain.body.count))
        #expect(head.body.isEmpty)

        let refused = try client.request("GET", "/search?q=%22%20*%20(%20-%20%5E")
        #expect(refused.status == 400)
        #expect(refused.header("Content-Type") == "application/problem+json")
        #expect(refused.bodyText.contains("'q'"))
        let syntax = try client.request("GET", "/search?q=NEAR(broadway%20OR%20%22street%22*")
        #expect(syntax.status == 200)
        #expect(try client.request("GET", "/search?q=park&lat=40.7").status == 400)
        #expect(try client.request("GET", "/search?q=park").status == 200)
    }

    /// A catalog written by the release before search (format 1, no full-text index and
    /// no postings) is stale: the server rebuilds it, and search works.
    @Test func catalogWithoutTheIndexIsRebuilt() throws {
        let directory = try TemporaryDirectory(prefix: "search-stale")
        let path = directory.file(CatalogStore.databaseFileName)
        try FileManager.default.copyItem(atPath: try SharedCatalog.path(), toPath: path)
        do {
            let connection = try SQLiteConnection(path: path)
            try connection.execute("DROP TABLE photo_search; DROP TABLE photo_search_words; DROP TABLE photo_search_lengths")
            try connection.execute("UPDATE catalog_meta SET value = '1' WHERE key = 'format_version'")
            try connection.execute("PRAGMA user_version = 1")
        }
        #expect(throws: (any Error).self) {
            _ = try ShippedSearchIndex(databasePath: path, shipped: try SharedCatalog.catalog().shipped)
        }
        let shipped = try CatalogStore.openOrBuild(dataDirectory: directory.path, sourceDirectory: PackageRoot.path + "/Data")
        let search = try PhotoSearch(
            catalog: PhotoCatalog(shipped), shipped: ShippedSearchIndex(databasePath: path, shipped: shipped))
        let page = search.search(SearchQuery(terms: try SearchTerms("flatiron")))
        #expect(page.total == (try SearchHarness.oracle().matches("flatiron", filter: PhotoFilter()).count))
        #expect(page.total > 0)
    }
}
