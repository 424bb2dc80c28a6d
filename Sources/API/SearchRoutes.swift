import Basics
import Catalog
import Explore
import HTTPServer

/// `GET /search` (openapi.yaml): photos whose words match every word of `q`.
///
/// Searches run in memory. Almost every query is answered on the event loop; the few
/// that cost more CPU than an event loop may spend on one request (`PhotoSearch.searchOnEventLoop`)
/// run on the worker pool (`RouteHandler.immediateUnlessBlocking`). Every 200 carries a strong ETag made of the
/// catalog's data version and the normalized query (`CatalogEntityTag`): the keys of
/// `q`'s words, the filters, the point, the page size and where the page starts.
public struct SearchRoutes: Sendable {
    private let search: PhotoSearch
    private let json: CatalogJSON
    private let dataVersion: String
    private let topics: TopicIndex

    public init(search: PhotoSearch, catalogRoutes: CatalogRoutes, dataVersion: String) {
        self.search = search
        self.json = catalogRoutes.json
        self.dataVersion = dataVersion
        self.topics = catalogRoutes.topics
    }

    /// Registers the route, answered by the routes `current` gives when its request
    /// starts (again when it moves to a worker).
    public static func register(in router: inout Router, current: @escaping @Sendable () -> SearchRoutes) {
        router.add(
            .get, "/search", caching: .catalog,
            .immediateUnlessBlocking({ try current().searchOnEventLoop($0) }, blocking: { try current().search($0) }))
    }

    static let parameters: QueryParameterNames = ["q", "from", "to", "borough", "topic", "lat", "lon", "limit", "cursor"]

    /// The response, or nil when the query costs too much for an event loop.
    func searchOnEventLoop(_ request: HTTPRequest) throws -> HTTPResponse? {
        let query = try query(request)
        return search.searchOnEventLoop(query).map { respond(query, page: $0) }
    }

    func search(_ request: HTTPRequest) throws -> HTTPResponse {
        let query = try query(request)
        return respond(query, page: search.search(query))
    }

    /// The query of a request, its cursor checked against its list.
    private func query(_ request: HTTPRequest) throws -> SearchQuery {
        let parameters = try QueryParameters(request, known: Self.parameters)
        guard let q = parameters.value("q") else { throw QueryParameters.invalid("q", "is required") }
        let terms = try SearchTerms(q)
        let filter = try parameters.filter(topics: topics)
        var origin: (latitude: Double, longitude: Double)?
        if parameters.value("lat") != nil || parameters.value("lon") != nil {
            origin = (try parameters.number("lat", in: -90...90), try parameters.number("lon", in: -180...180))
        }
        let limit = try parameters.integer("limit", default: 20, in: 1...100)
        var query = SearchQuery(terms: terms, filter: filter, origin: origin, limit: limit)
        if let cursor = parameters.value("cursor") {
            guard let offset = OffsetCursor.decode(cursor, listDigest: query.listDigest) else {
                throw SearchError.invalidCursor
            }
            query.offset = offset
        }
        return query
    }

    private func respond(_ query: SearchQuery, page: SearchPage) -> HTTPResponse {
        let listDigest = query.listDigest
        let body = json.searchBody(
            total: page.total, photos: page.photos, distances: page.distances,
            nextCursor: page.nextOffset.map { OffsetCursor.encode(offset: $0, listDigest: listDigest) })
        let etag = CatalogEntityTag.value(dataVersion: dataVersion, endpoint: "s") { tag in
            tag.add(Int(bitPattern: UInt(listDigest)))
            tag.add(query.limit)
            tag.add(query.offset)
        }
        return .json(body, etag: etag)
    }
}
