@testable import API
import Catalog
import Explore
import HTTPServer
import Testing
import TestSupport

/// The search route on a router as the server registers it, over the catalog every
/// test of the process shares, and the oracle to check its answers against; each made
/// once, on first use.
enum SearchHarness {
    static let router: Result<Router, any Error> = Result {
        let routes = try SharedCatalog.content().generation.searchRoutes
        var router = Router()
        SearchRoutes.register(in: &router) { routes }
        return router
    }

    static let searchOracle: Result<SearchOracle, any Error> = Result { SearchOracle(catalog: try SharedCatalog.catalog()) }

    static func oracle() throws -> SearchOracle {
        try searchOracle.get()
    }

    /// A GET of `/search` through the server's request pipeline, without a socket.
    static func get(_ query: [(String, String)]) throws -> RawHTTPClient.Response {
        try InMemoryHTTPClient(router: router.get()).get("/search", query: query)
    }

    /// The problem `GET /search` answers for `query`, nil when it answers 200.
    static func refusal(_ query: [(String, String)]) throws -> RawHTTPClient.Response? {
        let response = try get(query)
        return response.status == 200 ? nil : response
    }
}
