import Basics
import Catalog
import HTTPServer

/// The public catalog endpoints of openapi.yaml: `/nearby`, `/region`, `/photos/{photoID}`,
/// `/locations/{locationID}` and `/boroughs`. All answer from memory, so they run on the
/// event loop.
///
/// Every 200 carries a strong ETag made of the catalog's data version and the
/// normalized query (`CatalogEntityTag`). One per generation of the catalog
/// (`CatalogGeneration`): a request is answered by the routes of the generation current
/// when it starts.
public struct CatalogRoutes: Sendable {
    private let catalog: PhotoCatalog
    /// The catalog's precomputed JSON, shared with the other routes that list locations and photos.
    let json: CatalogJSON

    public init(catalog: PhotoCatalog) {
        self.catalog = catalog
        self.json = CatalogJSON(catalog: catalog)
    }

    /// The catalog's subject topics, for the routes that filter by one.
    public var topics: TopicIndex { catalog.topicIndex }

    /// PlacedPhotos by photo ID, for favorites, recents and walks; made from the encoded
    /// summaries and places the routes share.
    public var placedPhotos: any PlacedPhotoProvider { json }

    /// Registers the routes, each answered by the routes `current` gives when its request starts.
    public static func register(in router: inout Router, current: @escaping @Sendable () -> CatalogRoutes) {
        router.add(.get, "/nearby", caching: .catalog, .immediate { try current().nearby($0) })
        router.add(.get, "/region", caching: .catalog, .immediate { try current().region($0) })
        router.add(.get, "/photos/{photoID}", caching: .catalog, .immediate { try current().photo($0) })
        router.add(.get, "/locations/{locationID}", caching: .catalog, .immediate { try current().location($0) })
        router.add(.get, "/boroughs", caching: .catalog, .immediate { _ in current().boroughs() })
    }

    static let nearbyParameters: QueryParameterNames = [
        "lat", "lon", "limit", "radius", "from", "to", "borough", "photos", "topic", "heading", "fov",
    ]
    static let regionParameters: QueryParameterNames = [
        "south", "west", "north", "east", "limit", "from", "to", "borough", "topic",
    ]
    static let locationParameters: QueryParameterNames = ["limit", "cursor", "from", "to", "topic"]

    func nearby(_ request: HTTPRequest) throws -> HTTPResponse {
        let parameters = try QueryParameters(request, known: Self.nearbyParameters)
        let latitude = try parameters.number("lat", in: -90...90)
        let longitude = try parameters.number("lon", in: -180...180)
        let limit = try parameters.integer("limit", default: 10, in: 1...100)
        let radius = try parameters.optionalNumber("radius")
        if let radius, !(radius > 0 && radius <= 50_000) {
            throw QueryParameters.invalid("radius", "must be greater than 0 and at most 50000 (metres)")
        }
        let filter = try parameters.filter(topics: catalog.topicIndex)
        let photos = try parameters.integer("photos", default: 5, in: 0...50)
        let cone = try parameters.cone()

        let query = NearbyQuery(
            latitude: latitude, longitude: longitude, limit: limit, radius: radius, filter: filter, cone: cone)
        let body = json.nearbyBody(query, photosPerLocation: photos, matches: catalog.nearby(query))
        let etag = CatalogEntityTag.value(dataVersion: catalog.dataVersion, endpoint: "n") { tag in
            tag.add(latitude)
            tag.add(longitude)
            tag.add(limit)
            tag.add(radius)
            tag.add(filter)
            tag.add(photos)
            tag.add(cone?.heading)
            tag.add(cone?.fieldOfView)
        }
        return .json(body, etag: etag)
    }

    func region(_ request: HTTPRequest) throws -> HTTPResponse {
        let parameters = try QueryParameters(request, known: Self.regionParameters)
        let (south, west, north, east) = try parameters.box()
        let limit = try parameters.integer("limit", default: 400, in: 1...5000)
        let filter = try parameters.filter(topics: catalog.topicIndex)

        let query = RegionQuery(south: south, west: west, north: north, east: east, limit: limit, filter: filter)
        let body = json.regionBody(catalog.region(query), everyPhoto: !filter.filtersPhotos)
        let etag = CatalogEntityTag.value(dataVersion: catalog.dataVersion, endpoint: "r") { tag in
            tag.add(south)
            tag.add(west)
            tag.add(north)
            tag.add(east)
            tag.add(limit)
            tag.add(filter)
        }
        return .json(body, etag: etag)
    }

    func photo(_ request: HTTPRequest) throws -> HTTPResponse {
        let photoID = request.pathParameters["photoID"] ?? ""
        guard let index = catalog.photoIndex(photoID: photoID) else {
            throw HTTPError.unknownPhoto(photoID)
        }
        let etag = CatalogEntityTag.value(dataVersion: catalog.dataVersion, endpoint: "p") { $0.add(index) }
        return .json(json.photoBody(index), etag: etag)
    }

    /// Every photo of one location (a map pin), in source order, in pages.
    func location(_ request: HTTPRequest) throws -> HTTPResponse {
        let locationID = request.pathParameters["locationID"] ?? ""
        guard let location = catalog.locationIndex(locationID: locationID) else {
            throw HTTPError.unknown("locationID", locationID, names: "location")
        }
        let parameters = try QueryParameters(request, known: Self.locationParameters)
        let limit = try parameters.integer("limit", default: 50, in: 1...100)
        let filter = try parameters.photoFilter(topics: catalog.topicIndex)
        // The location by its ID, not by its index in this generation: a list being paged
        // when a new catalog generation is served goes on in the new one.
        var digest = StableDigest()
        digest.mix(locationID.utf8)
        digest.mix(filter.fromYear)
        digest.mix(filter.toYear)
        digest.mix(filter.topic)
        let listDigest = digest.value
        var offset = 0
        if let cursor = parameters.string("cursor") {
            guard let resumed = OffsetCursor.decode(cursor, listDigest: listDigest) else {
                throw QueryParameters.invalid("cursor", "is not one this server issued for this location and these filters")
            }
            offset = resumed
        }
        let body = json.locationBody(location, filter: filter, offset: offset, limit: limit) { next in
            OffsetCursor.encode(offset: next, listDigest: listDigest)
        }
        let etag = CatalogEntityTag.value(dataVersion: catalog.dataVersion, endpoint: "l") { tag in
            tag.add(location)
            tag.add(limit)
            tag.add(offset)
            tag.add(filter)
        }
        return .json(body, etag: etag)
    }

    func boroughs() -> HTTPResponse {
        .json(json.boroughsBody, etag: CatalogEntityTag.value(dataVersion: catalog.dataVersion, endpoint: "b"))
    }
}
