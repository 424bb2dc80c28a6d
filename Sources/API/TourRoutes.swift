import Accounts
import Catalog
import Explore
import HTTPServer

/// The walking tours: `GET /tours` (public) and `GET /tours/favorites` (token).
///
/// Both plan on the `ComputePool`, one plan per core, and answer from there: `/tours` is
/// handed there from the event loop (`.handOff`), `/tours/favorites` from the HTTP worker
/// that read the caller's favorites (`.deferred`).
///
/// A `/tours` answer is pure computation over the in-memory catalog, but often longer
/// than an event loop may stall: measured with `past-nyc tour-gain` from random
/// Manhattan points, planning takes about 0.4 ms of CPU at the median of the default
/// budget, 0.8 ms at its 99th percentile, and milliseconds at
/// `minutes=240&stops=20&minPhotos=1` (thousands of candidates).
///
/// A tour is planned on the generation of the catalog current when its request started.
struct TourRoutes: Sendable {
    private let generations: CatalogGenerations
    private let accounts: Accounts
    private let compute: ComputePool

    /// PhotoSummaries listed per stop of `/tours`.
    static let photosPerStop = 3
    /// Favorites read per query while collecting them all.
    private static let favoritesPage = 200

    init(generations: CatalogGenerations, accounts: Accounts, compute: ComputePool) {
        self.generations = generations
        self.accounts = accounts
        self.compute = compute
    }

    func register(in router: inout Router) {
        router.add(.get, "/tours", caching: .catalog, .handOff { request, responder in
            let generation = generations.current
            compute.answer(responder) { try tour(request, on: generation) }
        })
        router.add(.get, "/tours/favorites", caching: .noStore, .deferred { try favoritesTour($0, $1) })
    }

    static let tourParameters: QueryParameterNames = [
        "lat", "lon", "minutes", "stops", "minPhotos", "from", "to", "borough", "topic",
    ]
    static let favoritesTourParameters: QueryParameterNames = ["lat", "lon"]

    /// The best tour the planner finds; its ETag depends only on the normalized query,
    /// because the planner is deterministic.
    func tour(_ request: HTTPRequest, on generation: CatalogGeneration) throws -> HTTPResponse {
        let (catalog, json) = (generation.catalog, generation.catalogRoutes.json)
        let parameters = try QueryParameters(request, known: Self.tourParameters)
        let latitude = try parameters.number("lat", in: -90...90)
        let longitude = try parameters.number("lon", in: -180...180)
        let minutes = try parameters.integer("minutes", default: 60, in: 10...240)
        let stops = try parameters.integer("stops", default: 8, in: 2...20)
        let minPhotos = try parameters.integer("minPhotos", default: 5, in: 1...100)
        let filter = try parameters.filter(topics: catalog.topicIndex)

        let query = TourQuery(
            latitude: latitude, longitude: longitude, budget: TourBudget(minutes: minutes, maxStops: stops),
            minPhotos: minPhotos, filter: filter)
        let tour = catalog.tourProblem(query).bestTour()
        let body = TourJSON.body(tour, json: json) { stop, body in
            json.appendMatchingPhotos(of: stop.site.location, filter: filter, limit: Self.photosPerStop, to: &body)
        }
        // "t2": the planner's version, so a server with another planner tags its tours apart.
        let etag = CatalogEntityTag.value(dataVersion: catalog.dataVersion, endpoint: "t2") { tag in
            tag.add(latitude)
            tag.add(longitude)
            tag.add(minutes)
            tag.add(stops)
            tag.add(minPhotos)
            tag.add(filter)
        }
        return .json(body, etag: etag)
    }

    /// The shortest walk through the locations of the caller's favorites; each stop
    /// lists the caller's favorite photos there, newest saved first. The favorites are
    /// read here, on the HTTP worker; the walk is planned on the compute pool.
    func favoritesTour(_ request: HTTPRequest, _ responder: HTTPResponder) throws {
        let user = try accounts.sessions.authenticate(request)
        let generation = generations.current
        let (catalog, json) = (generation.catalog, generation.catalogRoutes.json)
        let parameters = try QueryParameters(request, known: Self.favoritesTourParameters)
        let latitude = try parameters.number("lat", in: -90...90)
        let longitude = try parameters.number("lon", in: -180...180)

        // Every favorite, newest first; those whose photo left the catalog are skipped.
        var photosByLocation: [Int: [Int]] = [:]
        var cursor: String?
        repeat {
            let page = try accounts.favorites.page(user, limit: Self.favoritesPage, cursor: cursor)
            for favorite in page.favorites {
                guard let photo = catalog.photoIndex(photoID: favorite.photoID) else { continue }
                photosByLocation[catalog.photos[photo].locationIndex, default: []].append(photo)
            }
            cursor = page.nextCursor
        } while cursor != nil

        compute.answer(responder) { [catalog, json, photosByLocation] in
            let tour = catalog.favoritesTour(
                latitude: latitude, longitude: longitude, locations: photosByLocation.keys.sorted())
            let body = TourJSON.body(tour, json: json) { stop, body in
                for (offset, photo) in (photosByLocation[stop.site.location] ?? []).enumerated() {
                    if offset > 0 { body.append(UInt8(ascii: ",")) }
                    json.appendPhotoSummary(photo, to: &body)
                }
            }
            return .json(body)
        }
    }
}
