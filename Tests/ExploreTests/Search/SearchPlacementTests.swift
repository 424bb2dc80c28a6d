import Basics
import API
import Catalog
import Explore
import Foundation
import HTTPServer
import Testing
import TestSupport

/// `GET /search` answers on the event loop unless a query costs too much CPU for it, and
/// both paths give the very same bytes.
@Suite struct SearchPlacementTests {
    /// The route's two paths, as registered on `router`.
    static func paths(_ router: Router) throws -> (
        fast: @Sendable (HTTPRequest) throws -> HTTPResponse?, slow: @Sendable (HTTPRequest) throws -> HTTPResponse
    ) {
        guard case .found(let handler, _, _, _) = router.match(.get, path: "/search"),
            case .immediateUnlessBlocking(let fast, let slow) = handler
        else { throw HTTPError(.notFound, detail: "/search is not immediateUnlessBlocking") }
        return (fast, slow)
    }

    /// A router with a search of its own, so no other test has filled its phrase cache.
    static func freshRouter() throws -> Router {
        let catalog = try SharedCatalog.catalog()
        let search = try PhotoSearch(
            catalog: catalog, shipped: ShippedSearchIndex(databasePath: try SharedCatalog.path(), shipped: catalog.shipped))
        let routes = SearchRoutes(search: search, catalogRoutes: CatalogRoutes(catalog: catalog), dataVersion: catalog.dataVersion)
        var router = Router()
        SearchRoutes.register(in: &router) { routes }
        return router
    }

    static func request(_ query: [(String, String)]) -> HTTPRequest {
        HTTPRequest(method: .get, target: "/search", path: "/search", queryItems: query.map { (name: $0.0, value: $0.1) })
    }

    @Test(arguments: [
        [("q", "street")],
        [("q", "broadway stre"), ("limit", "7")],
        [("q", "flatiron")],
        [("q", "bridge"), ("borough", "brooklyn"), ("from", "1920"), ("to", "1940")],
        [("q", "broadway"), ("lat", "40.75"), ("lon", "-73.99"), ("limit", "50")],
    ])
    func bothPathsGiveTheSameBytes(_ query: [(String, String)]) throws {
        let (fast, slow) = try Self.paths(try Self.freshRouter())
        let request = Self.request(query)
        let fromWorkers = try slow(request)
        let fromEventLoop = try #require(try fast(request))
        #expect(fromEventLoop.body == fromWorkers.body)
        #expect(fromEventLoop.etag == fromWorkers.etag)
        #expect(fromEventLoop.status == .ok)
    }

    /// Rare words, and words and prefixes of a few thousand photos, are answered on the
    /// event loop even the first time.
    @Test(arguments: ["qqzzqqzz", "flatiron", "brooklyn bri", "church", "broadway 42"])
    func typicalQueriesStayOnTheEventLoop(q: String) throws {
        let (fast, _) = try Self.paths(try Self.freshRouter())
        #expect(try fast(Self.request([("q", q)]))?.status == .ok)
    }

    /// A one-letter prefix unites thousands of words (`s`: about 250,000 postings), a
    /// point on a word of 40,000 photos measures every one, and a deep page keeps every
    /// result before it: the workers take them. Once ranked and cached, the one-letter
    /// prefix is cheap.
    @Test func costlyQueriesGoToTheWorkers() throws {
        let (fast, slow) = try Self.paths(try Self.freshRouter())
        let prefix = Self.request([("q", "s")])
        #expect(try fast(prefix) == nil)
        let answer = try slow(prefix)
        #expect(try fast(prefix)?.body == answer.body)
        let near = Self.request([("q", "street"), ("lat", "40.75"), ("lon", "-73.99")])
        #expect(try fast(near) == nil)
        #expect(try slow(near).status == .ok)
        let listDigest = SearchQuery(terms: try SearchTerms("flatiron")).listDigest
        let deep = Self.request([("q", "flatiron"), ("cursor", OffsetCursor.encode(offset: 5000, listDigest: listDigest))])
        #expect(try fast(deep) == nil)
        #expect(try slow(deep).status == .ok)
    }

    @Test func badInputIsRefusedOnTheFastPathToo() throws {
        let (fast, _) = try Self.paths(try SearchHarness.router.get())
        let refusal = #expect(throws: SearchError.self) { try fast(Self.request([("q", "\"*")])) }
        #expect(refusal?.problem?.status == .badRequest)
    }
}
