import Foundation
import OpenAPIRuntime
import OpenAPIURLSession
import PastNYCClient
import Testing
import TestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension EndToEndTests {
    /// The public operations: service, catalog and exploring. Each GET with an ETag
    /// is asked again with it and must answer 304.
    @Suite struct CatalogAndExplore {
        @Test func healthAndDocument() async throws {
            let client = try makeClient()
            #expect(try await client.getHealth().ok.body.json.status == .ok)

            let served = try await client.getOpenAPIDocument().ok.body.yaml
            let bytes = try await Data(collecting: served, upTo: 1 << 20)
            let file = try Data(contentsOf: URL(fileURLWithPath: PackageRoot.path).appendingPathComponent("openapi.yaml"))
            #expect(bytes == file)
        }

        @Test func nearby() async throws {
            let client = try makeClient()
            let query = Operations.GetNearby.Input.Query(
                lat: unionSquare.latitude, lon: unionSquare.longitude, limit: 5, borough: "manhattan", photos: 2
            )
            let ok = try await client.getNearby(query: query).ok
            let locations = try ok.body.json.locations
            #expect(locations.count == 5)
            #expect(locations.map(\.value2.distanceMeters) == locations.map(\.value2.distanceMeters).sorted())
            #expect(locations.allSatisfy { $0.value1.borough == .manhattan && $0.value2.photos.count <= 2 })

            let again = try await client.getNearby(query: query, headers: .init(ifNoneMatch: ok.headers.eTag))
            #expect(try again.notModified.headers.eTag == ok.headers.eTag)

            let problem = try await client.getNearby(query: .init(lat: 200, lon: unionSquare.longitude))
                .badRequest.body.applicationProblemJson
            #expect(problem.status == 400)
            #expect(problem.detail.contains("lat"))
        }

        /// Why ``IfNoneMatchMiddleware`` exists: without it the runtime percent-encodes
        /// the ETag, the server sees no entity tag it knows, and answers 200 again.
        @Test func withoutTheMiddlewareTheETagNeverMatches() async throws {
            let url = try #require(RunningServer.url)
            let plain = Client(serverURL: url, transport: URLSessionTransport())
            let etag = try await plain.getBoroughs().ok.headers.eTag
            let again = try await plain.getBoroughs(headers: .init(ifNoneMatch: etag))
            #expect(try again.ok.headers.eTag == etag)
        }

        @Test func region() async throws {
            let client = try makeClient()
            let query = Operations.GetRegion.Input.Query(south: 40.70, west: -74.02, north: 40.75, east: -73.97, limit: 3)
            let ok = try await client.getRegion(query: query).ok
            let region = try ok.body.json
            #expect(region.locations.count == 3)
            #expect(region.truncated && region.total > 3)
            #expect(region.locations.map(\.value1.photoCount) == region.locations.map(\.value1.photoCount).sorted(by: >))

            _ = try await client.getRegion(query: query, headers: .init(ifNoneMatch: ok.headers.eTag)).notModified

            let problem = try await client.getRegion(query: .init(south: 40.75, west: -74.02, north: 40.70, east: -73.97))
                .badRequest.body.applicationProblemJson
            #expect(problem.detail.contains("south") || problem.detail.contains("north"))
        }

        @Test func photo() async throws {
            let client = try makeClient()
            let id = try #require(try await photoIDsNearUnionSquare(count: 1).first)
            let ok = try await client.getPhoto(path: .init(photoID: id)).ok
            let photo = try ok.body.json
            #expect(photo.value1.photoID == id)
            #expect(photo.value2.borough == .manhattan)
            #expect(photo.value2.nyplURL.hasPrefix("http"))

            _ = try await client.getPhoto(path: .init(photoID: id), headers: .init(ifNoneMatch: ok.headers.eTag)).notModified

            let problem = try await client.getPhoto(path: .init(photoID: "no-such-photo")).notFound.body.applicationProblemJson
            #expect(problem.status == 404)
        }

        /// The location with the most photos (the first of `/region` over the whole
        /// city), paged with `nextCursor` to the end: every photo exactly once, as many
        /// as `photoCount`.
        @Test func location() async throws {
            let client = try makeClient()
            let largest = try await client.getRegion(query: .init(south: 40.49, west: -74.26, north: 40.92, east: -73.69, limit: 1))
                .ok.body.json.locations.first?.value1
            let location = try #require(largest)
            #expect(location.photoCount > 50)
            let path = Operations.GetLocation.Input.Path(locationID: location.locationID)

            let ok = try await client.getLocation(path: path).ok
            #expect(ok.headers.cacheControl == "public, max-age=300")
            let first = try ok.body.json
            #expect(first.value1 == location)
            #expect(first.value2.photos.count == 50)
            var ids = first.value2.photos.map(\.photoID)
            var cursor = first.value2.nextCursor
            while let next = cursor {
                let page = try await client.getLocation(path: path, query: .init(limit: 100, cursor: next)).ok.body.json
                #expect(page.value1.photoCount == location.photoCount)
                #expect(!page.value2.photos.isEmpty)
                ids += page.value2.photos.map(\.photoID)
                cursor = page.value2.nextCursor
            }
            #expect(ids.count == location.photoCount)
            #expect(Set(ids).count == ids.count)

            let notModified = try await client.getLocation(path: path, headers: .init(ifNoneMatch: ok.headers.eTag)).notModified
            #expect(notModified.headers.eTag == ok.headers.eTag)
            #expect(notModified.headers.cacheControl == "public, max-age=300")

            // Filters: photoCount counts the matching photos, none matching is a 200.
            let dated = try await client.getLocation(path: path, query: .init(from: 1900, to: 1940, limit: 1)).ok.body.json
            #expect(dated.value1.photoCount <= location.photoCount && dated.value2.photos.count <= 1)
            let future = try await client.getLocation(path: path, query: .init(from: 9000)).ok.body.json
            #expect(future.value1.photoCount == 0 && future.value2.photos.isEmpty && future.value2.nextCursor == nil)

            // A cursor is bound to its location and filters.
            let bad = try await client.getLocation(path: path, query: .init(cursor: "not a cursor")).badRequest
            #expect(try bad.body.applicationProblemJson.detail.contains("cursor"))
            let otherFilters = try await client.getLocation(path: path, query: .init(from: 1800, cursor: first.value2.nextCursor))
            #expect(try otherFilters.badRequest.body.applicationProblemJson.detail.contains("cursor"))
            let years = try await client.getLocation(path: path, query: .init(from: 1940, to: 1900)).badRequest
            #expect(try years.body.applicationProblemJson.detail.contains("from"))

            // Only the API's own spelling of a location's point names it.
            _ = try await client.getLocation(path: .init(locationID: "0.000000,0.000000")).notFound
            let respelled = String(format: "%.5f,%.5f", location.latitude, location.longitude)
            #expect(try await client.getLocation(path: .init(locationID: respelled)).notFound.body.applicationProblemJson.status == 404)

            // With a token, even a public answer is not for shared caches.
            let user = try await TestUser.register("pin")
            #expect(try await user.client.getLocation(path: path, query: .init(limit: 1)).ok.headers.cacheControl == "no-store")
        }

        @Test func boroughs() async throws {
            let client = try makeClient()
            let ok = try await client.getBoroughs().ok
            #expect(try ok.body.json.map(\.name) == [.manhattan, .bronx, .brooklyn, .queens, .statenIsland])
            _ = try await client.getBoroughs(headers: .init(ifNoneMatch: ok.headers.eTag)).notModified
        }

        /// The snapshot, resumed: a range carries the identity ETag (the whole answer may
        /// have come gzipped, under its own tag), and that tag holds in `If-Range`.
        @Test func catalogSnapshot() async throws {
            let client = try makeClient()
            let ok = try await client.getCatalogSnapshot().ok
            let whole = try await Data(collecting: ok.body.applicationXNdjson, upTo: 256 << 20)
            #expect(whole.split(separator: UInt8(ascii: "\n")).count == 9007)

            let first = try await client.getCatalogSnapshot(headers: .init(range: "bytes=0-99")).partialContent
            #expect(first.headers.contentRange == "bytes 0-99/\(whole.count)")
            let resumed = try await client.getCatalogSnapshot(headers: .init(range: "bytes=100-", ifRange: first.headers.eTag))
                .partialContent
            let rest = try await Data(collecting: resumed.body.applicationXNdjson, upTo: 256 << 20)
            let head = try await Data(collecting: first.body.applicationXNdjson, upTo: 100)
            #expect(head + rest == whole)

            let beyond = try await client.getCatalogSnapshot(headers: .init(range: "bytes=\(whole.count)-")).rangeNotSatisfiable
            #expect(beyond.headers.contentRange == "bytes */\(whole.count)")
            _ = try await client.getCatalogSnapshot(headers: .init(ifNoneMatch: ok.headers.eTag)).notModified
        }

        /// What changed since a generation: nothing, on a server without corrections; the
        /// snapshot names its generation; a token never issued is 400, one of other data 410.
        @Test func catalogChanges() async throws {
            let client = try makeClient()
            let generation = try await client.getCatalogSnapshot(headers: .init(range: "bytes=0-9")).partialContent.headers
                .catalogGeneration
            let current = try await client.getCatalogChanges().ok.body.json
            #expect(current.generation == generation && current.changes.isEmpty)
            let since = try await client.getCatalogChanges(query: .init(since: generation)).ok
            #expect(try since.body.json.changes.isEmpty)
            _ = try await client.getCatalogChanges(query: .init(since: generation), headers: .init(ifNoneMatch: since.headers.eTag))
                .notModified
            _ = try await client.getCatalogChanges(query: .init(since: "latest")).badRequest.body.applicationProblemJson
            _ = try await client.getCatalogChanges(query: .init(since: "0-0123456789abcdef")).gone.body.applicationProblemJson
        }

        @Test func clusters() async throws {
            let client = try makeClient()
            let query = Operations.GetClusters.Input.Query(south: 40.49, west: -74.26, north: 40.92, east: -73.69, zoom: 11, limit: 5)
            let ok = try await client.getClusters(query: query).ok
            let clusters = try ok.body.json
            #expect(clusters.zoom == 11 && clusters.clusters.count == 5 && clusters.truncated)
            #expect(clusters.clusters.allSatisfy { ($0.locationCount == 1) == ($0.locationID != nil) })

            _ = try await client.getClusters(query: query, headers: .init(ifNoneMatch: ok.headers.eTag)).notModified

            let problem = try await client.getClusters(query: .init(south: 40.49, west: -74.26, north: 40.92, east: -73.69, zoom: 23))
                .badRequest.body.applicationProblemJson
            #expect(problem.detail.contains("zoom"))
        }

        @Test func search() async throws {
            let client = try makeClient()
            let query = Operations.Search.Input.Query(q: "broadw", lat: unionSquare.latitude, lon: unionSquare.longitude, limit: 3)
            let ok = try await client.search(query: query).ok
            let page = try ok.body.json
            #expect(page.results.count == 3 && page.total > 3)
            let distances = page.results.compactMap(\.value2.distanceMeters)
            #expect(distances.count == 3 && distances == distances.sorted())
            let next = try #require(page.nextCursor)
            let second = try await client.search(query: .init(q: "broadw", lat: unionSquare.latitude, lon: unionSquare.longitude, limit: 3, cursor: next)).ok.body.json
            #expect(Set(second.results.map(\.value1.photoID)).isDisjoint(with: page.results.map(\.value1.photoID)))

            _ = try await client.search(query: query, headers: .init(ifNoneMatch: ok.headers.eTag)).notModified

            let problem = try await client.search(query: .init(q: "!!")).badRequest.body.applicationProblemJson
            #expect(problem.detail.contains("q"))
        }

        @Test func tour() async throws {
            let client = try makeClient()
            let query = Operations.GetTour.Input.Query(lat: unionSquare.latitude, lon: unionSquare.longitude, minutes: 60, stops: 4)
            let ok = try await client.getTour(query: query).ok
            let tour = try ok.body.json
            #expect(!tour.stops.isEmpty && tour.stops.count <= 4)
            #expect(tour.photoCount == tour.stops.map(\.value1.photoCount).reduce(0, +))
            #expect(tour.durationMinutes <= 60)

            _ = try await client.getTour(query: query, headers: .init(ifNoneMatch: ok.headers.eTag)).notModified

            let problem = try await client.getTour(query: .init(lat: unionSquare.latitude, lon: unionSquare.longitude, minutes: 5))
                .badRequest.body.applicationProblemJson
            #expect(problem.detail.contains("minutes"))
        }
    }
}
