import Catalog
import Explore
import HTTPServer

/// `GET /clusters`: the map zoomed out, the locations of a box grouped into Web
/// Mercator grid cells (see `openapi.yaml`). Answered from memory by `ClusterIndex`,
/// so it runs on the event loop; every 200 carries a strong ETag of the catalog's
/// data version and the normalized query (`CatalogEntityTag`). Answers of recent
/// queries are kept rendered, with their gzip once asked for (`ClusterResponseCache`),
/// for as long as their generation of the catalog is served.
public struct ClusterRoutes: Sendable {
    private let catalog: PhotoCatalog
    private let index: ClusterIndex
    private let json: ClusterJSON
    let cache: ClusterResponseCache

    /// Bytes of rendered answers kept by default: the whole-city box at zoom 13 is
    /// 130 KB, a map tile's box a few KB.
    public static let defaultCacheCapacity = 8 << 20

    /// Builds the grids of every zoom level and encodes their cells.
    /// - Parameter cacheCapacity: bytes of rendered answers kept at most.
    public init(catalog: PhotoCatalog, cacheCapacity: Int = defaultCacheCapacity) {
        self.catalog = catalog
        index = ClusterIndex(catalog: catalog)
        json = ClusterJSON(catalog: catalog, index: index)
        cache = ClusterResponseCache(capacity: cacheCapacity)
    }

    /// Registers the route, answered by the routes `current` gives when its request starts.
    public static func register(in router: inout Router, current: @escaping @Sendable () -> ClusterRoutes) {
        router.add(.get, "/clusters", caching: .catalog, .immediate { try current().clusters($0) })
    }

    static let parameters: QueryParameterNames = [
        "south", "west", "north", "east", "zoom", "limit", "from", "to", "borough", "topic",
    ]

    func clusters(_ request: HTTPRequest) throws -> HTTPResponse {
        let parameters = try QueryParameters(request, known: Self.parameters)
        let (south, west, north, east) = try parameters.box()
        let zoom = try parameters.integer("zoom", in: MercatorCell.zooms)
        let limit = try parameters.integer("limit", default: 500, in: 1...5000)
        let filter = try parameters.filter(topics: catalog.topicIndex)

        let query = ClusterQuery(
            south: south, west: west, north: north, east: east, zoom: zoom, limit: limit, filter: filter)
        let key = ClusterResponseCache.Key(query)
        let answer = cache.answer(key) { render(query) }
        var response = HTTPResponse.json(answer.body, etag: answer.etag)
        response.gzippedBody = { [cache] in cache.gzipped(key, answer) }
        return response
    }

    /// The body and the ETag of a query, made afresh.
    func render(_ query: ClusterQuery) -> ClusterResponseCache.Answer {
        let etag = CatalogEntityTag.value(dataVersion: catalog.dataVersion, endpoint: "c") { tag in
            tag.add(query.south)
            tag.add(query.west)
            tag.add(query.north)
            tag.add(query.east)
            tag.add(query.zoom)
            tag.add(query.limit)
            tag.add(query.filter)
        }
        return ClusterResponseCache.Answer(body: json.body(index.clusters(query)), etag: etag)
    }
}
