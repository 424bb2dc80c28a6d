@testable import API
import Catalog
import Explore
import Foundation
import HTTPServer
import Testing
import TestSupport

/// The real catalog (built once per test process), the search route on a router as
/// the server registers it, and the oracle to check its answers against.
enum SearchHarness {
    struct Shared: Sendable {
        let catalog: PhotoCatalog
        let router: Router
        let oracle: SearchOracle
    }

    static let shared: Result<Shared, any Error> = Result {
        let content = try SharedCatalog.content()
        let catalog = content.catalog
        var router = Router()
        SearchRoutes(search: content.search, catalogRoutes: content.catalogRoutes, dataVersion: catalog.dataVersion)
            .register(in: &router)
        return Shared(catalog: catalog, router: router, oracle: SearchOracle(catalog: catalog))
    }

    static func load() throws -> Shared {
        try shared.get()
    }

    /// Runs `GET /search` through the router, as the server would.
    static func get(_ query: [(String, String)]) throws -> HTTPResponse {
        let router = try load().router
        guard case .found(let handler, let parameters, _) = router.match(.get, path: "/search") else {
            throw HTTPError(.notFound, detail: "no route for /search")
        }
        let request = HTTPRequest(
            method: .get, target: "/search", path: "/search", queryItems: query.map { (name: $0.0, value: $0.1) },
            pathParameters: parameters)
        switch handler.placement(for: request) {
        case .immediate(let run): return try run(request)
        case .blocking(let run): return try run(request)
        case .deferred: preconditionFailure("no catalog route answers later")
        }
    }

    /// The HTTPError `GET /search` throws for `query`, nil when it answers.
    static func refusal(_ query: [(String, String)]) throws -> HTTPError? {
        do {
            _ = try get(query)
            return nil
        } catch let error as HTTPError {
            return error
        }
    }

    static func object(_ response: HTTPResponse) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }
}
