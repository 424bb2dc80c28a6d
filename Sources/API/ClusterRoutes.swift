import Catalog
import Explore
import HTTPServer

/// `GET /clusters`: the map zoomed out, the locations of a box grouped into Web
/// Mercator grid cells (see `openapi.yaml`). Answered from memory by `ClusterIndex`,
/// so it runs on the event loop; every 200 carries a strong ETag of the catalog's
/// data version and the normalized query (`CatalogEntityTag`).
public struct ClusterRoutes: Sendable {
    private let catalog: PhotoCatalog
    private let index: ClusterIndex
    private let json: ClusterJSON

    /// Builds the grids of every zoom level and encodes their cells.
    public init(catalog: PhotoCatalog) {
        self.catalog = catalog
        index = ClusterIndex(catalog: catalog)
        json = ClusterJSON(catalog: catalog, index: index)
    }

    public func register(in router: inout Router) {
        router.add(.get, "/clusters", .immediate { try clusters($0) })
    }

    static let parameters = ["south", "west", "north", "east", "zoom", "limit", "from", "to", "borough"]

    func clusters(_ request: HTTPRequest) throws -> HTTPResponse {
        let parameters = try CatalogParameters(request, known: Self.parameters)
        let (south, west, north, east) = try parameters.box()
        let zoom = try parameters.integer("zoom", in: MercatorCell.zooms)
        let limit = try parameters.integer("limit", default: 500, in: 1...5000)
        let filter = try parameters.filter()

        let query = ClusterQuery(
            south: south, west: west, north: north, east: east, zoom: zoom, limit: limit, filter: filter)
        let body = json.body(index.clusters(query))
        var tag = CatalogEntityTag(dataVersion: catalog.dataVersion, endpoint: "c")
        for value in [south, west, north, east] { tag.add(value) }
        tag.add(zoom)
        tag.add(limit)
        tag.add(filter)
        return .json(body, etag: tag.value)
    }
}
