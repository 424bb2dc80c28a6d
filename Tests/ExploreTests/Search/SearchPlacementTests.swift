import Foundation
import HTTPServer
import Testing

/// `GET /search` answers on the event loop once its phrases are in memory, with the
/// very bytes the worker pool's path gives, and goes to the workers otherwise.
@Suite struct SearchPlacementTests {
    /// The route's two paths, as registered.
    static func paths() throws -> (
        fast: @Sendable (HTTPRequest) throws -> HTTPResponse?, slow: @Sendable (HTTPRequest) throws -> HTTPResponse
    ) {
        guard case .found(let handler, _) = try SearchHarness.load().router.match(.get, path: "/search"),
            case .immediateUnlessBlocking(let fast, let slow) = handler
        else { throw HTTPError(.notFound, detail: "/search is not immediateUnlessBlocking") }
        return (fast, slow)
    }

    static func request(_ query: [(String, String)]) -> HTTPRequest {
        HTTPRequest(method: .get, target: "/search", path: "/search", queryItems: query.map { (name: $0.0, value: $0.1) })
    }

    @Test(arguments: [
        [("q", "street")],
        [("q", "broadway stre"), ("limit", "7")],
        [("q", "avenue"), ("borough", "brooklyn"), ("from", "1920"), ("to", "1940")],
        [("q", "street"), ("lat", "40.75"), ("lon", "-73.99"), ("limit", "50")],
    ])
    func aCachedQueryIsAnsweredInMemoryWithTheSameBytes(_ query: [(String, String)]) throws {
        let (fast, slow) = try Self.paths()
        let request = Self.request(query)
        let fromWorkers = try slow(request)  // Looks every phrase up, and caches the common ones.
        let fromMemory = try #require(try fast(request))
        #expect(fromMemory.body == fromWorkers.body)
        #expect(fromMemory.etag == fromWorkers.etag)
        #expect(fromMemory.status == .ok)
    }

    @Test func aPhraseNotInMemoryGoesToTheWorkers() throws {
        let (fast, slow) = try Self.paths()
        // No photo has this word: too few matches to be cached, so never in memory.
        let request = Self.request([("q", "qqzzqqzz")])
        _ = try slow(request)
        #expect(try fast(request) == nil)
    }

    @Test func badInputIsRefusedOnTheFastPathToo() throws {
        let (fast, _) = try Self.paths()
        #expect(throws: HTTPError.self) { try fast(Self.request([("q", "\"*")])) }
    }
}
