import Foundation
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession
import PastNYCClient
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension EndToEndTests {
    /// Discovery: the subject topics and the `topic` filter, what the user is facing
    /// (`heading`, `fov`), and what people are saving now.
    @Suite struct Discovery {
        /// The whole catalog, as a box.
        static let city = (south: 40.49, west: -74.26, north: 40.92, east: -73.69)
        /// A box around Union Square that holds every location within 2 km of it.
        static let aroundUnionSquare = (south: 40.70, west: -74.03, north: 40.78, east: -73.95)

        /// The topic with the most photos, asked for by the tests of the filter.
        private func firstTopic() async throws -> Components.Schemas.Topic {
            try #require(try await makeClient().getTopics().ok.body.json.topics.first)
        }

        @Test func topics() async throws {
            let client = try makeClient()
            let ok = try await client.getTopics().ok
            #expect(ok.headers.cacheControl == "public, max-age=300")
            let topics = try ok.body.json.topics
            #expect(topics.count == 1049)
            let first = try #require(topics.first)
            #expect(first.name == "Apartment houses" && first.photoCount == 3904)
            #expect(first.locationCount > 0 && first.locationCount <= first.photoCount)
            // Most photos first, ties by name (by code point); each name once, ignoring case.
            for (a, b) in zip(topics, topics.dropFirst()) {
                #expect(
                    a.photoCount > b.photoCount
                        || (a.photoCount == b.photoCount && a.name.unicodeScalars.lexicographicallyPrecedes(b.name.unicodeScalars)))
            }
            #expect(Set(topics.map { $0.name.lowercased() }).count == topics.count)
            #expect(topics.allSatisfy { $0.photoCount >= 1 && $0.locationCount >= 1 && $0.locationCount <= $0.photoCount })

            let notModified = try await client.getTopics(headers: .init(ifNoneMatch: ok.headers.eTag)).notModified
            #expect(notModified.headers.eTag == ok.headers.eTag)
            #expect(notModified.headers.cacheControl == "public, max-age=300")
        }

        /// `/nearby` and `/region` with `topic`: only matching photos count, so every
        /// location's `photoCount` is at most its unfiltered one; over the whole city the
        /// locations and photos add up to the topic's counts; any letter case is the topic.
        @Test func topicOnNearbyAndRegion() async throws {
            let client = try makeClient()
            let topic = try await firstTopic()
            let box = Self.aroundUnionSquare
            let everything = try await client.getRegion(query: .init(south: box.south, west: box.west, north: box.north, east: box.east, limit: 5000))
                .ok.body.json
            #expect(!everything.truncated)
            let unfilteredCounts = Dictionary(uniqueKeysWithValues: everything.locations.map { ($0.value1.locationID, $0.value1.photoCount) })

            let regionQuery = Operations.GetRegion.Input.Query(
                south: box.south, west: box.west, north: box.north, east: box.east, limit: 5000, topic: topic.name)
            let region = try await client.getRegion(query: regionQuery).ok
            let filtered = try region.body.json
            #expect(!filtered.locations.isEmpty && filtered.total < everything.total)
            for location in filtered.locations.map(\.value1) {
                let unfiltered = try #require(unfilteredCounts[location.locationID])
                #expect(location.photoCount >= 1 && location.photoCount <= unfiltered)
            }
            #expect(filtered.locations.map(\.value1.photoCount) != filtered.locations.map { unfilteredCounts[$0.value1.locationID] ?? 0 })
            let variant = try await client.getRegion(query: .init(
                south: box.south, west: box.west, north: box.north, east: box.east, limit: 5000, topic: topic.name.uppercased())).ok
            #expect(try variant.body.json == filtered)
            #expect(variant.headers.eTag == region.headers.eTag)

            let city = Self.city
            let wholeCity = try await client.getRegion(query: .init(
                south: city.south, west: city.west, north: city.north, east: city.east, limit: 5000, topic: topic.name)).ok.body.json
            #expect(!wholeCity.truncated && wholeCity.total == topic.locationCount)
            #expect(wholeCity.locations.map(\.value1.photoCount).reduce(0, +) == topic.photoCount)

            let nearbyQuery = Operations.GetNearby.Input.Query(
                lat: unionSquare.latitude, lon: unionSquare.longitude, limit: 20, radius: 2000, topic: topic.name, photos: 50)
            let nearby = try await client.getNearby(query: nearbyQuery).ok
            let locations = try nearby.body.json.locations
            #expect(!locations.isEmpty)
            for location in locations {
                let unfiltered = try #require(unfilteredCounts[location.value1.locationID])
                #expect(location.value1.photoCount >= 1 && location.value1.photoCount <= unfiltered)
                #expect(location.value2.photos.count == min(location.value1.photoCount, 50))
                #expect(location.value2.bearing == nil)
            }
            let plain = try await client.getNearby(query: .init(lat: unionSquare.latitude, lon: unionSquare.longitude, limit: 20, radius: 2000))
                .ok.body.json.locations
            #expect(plain.map { [$0.value1.locationID: $0.value1.photoCount] } != locations.map { [$0.value1.locationID: $0.value1.photoCount] })
            let nearbyVariant = try await client.getNearby(query: .init(
                lat: unionSquare.latitude, lon: unionSquare.longitude, limit: 20, radius: 2000, topic: topic.name.lowercased(), photos: 50)).ok
            #expect(try nearbyVariant.body.json == nearby.body.json)
            #expect(nearbyVariant.headers.eTag == nearby.headers.eTag)
            _ = try await client.getNearby(query: nearbyQuery, headers: .init(ifNoneMatch: nearby.headers.eTag)).notModified

            let unknown = try await client.getNearby(query: .init(lat: unionSquare.latitude, lon: unionSquare.longitude, topic: "no such topic"))
            #expect(try unknown.badRequest.body.applicationProblemJson.detail.contains("topic"))
            let empty = try await client.getNearby(query: .init(lat: unionSquare.latitude, lon: unionSquare.longitude, topic: ""))
            #expect(try empty.badRequest.body.applicationProblemJson.detail.contains("topic"))
            let unknownInRegion = try await client.getRegion(query: .init(
                south: box.south, west: box.west, north: box.north, east: box.east, topic: "no such topic"))
            #expect(try unknownInRegion.badRequest.body.applicationProblemJson.detail.contains("topic"))
        }

        /// The grid cell of a cluster: its box's south-west corner lies in the cell of all
        /// its locations (the formula of `/clusters`).
        private func cell(_ cluster: Components.Schemas.Cluster, zoom: Int) -> [Int] {
            let n = Double(1 << (zoom + 2))
            let x = min(max(Int(((cluster.bbox.west + 180) / 360 * n).rounded(.down)), 0), Int(n) - 1)
            let latitude = min(max(cluster.bbox.south, -85.05112878), 85.05112878) * .pi / 180
            let y = min(max(Int(((1 - asinh(tan(latitude)) / .pi) / 2 * n).rounded(.down)), 0), Int(n) - 1)
            return [x, y]
        }

        @Test func topicOnClusters() async throws {
            let client = try makeClient()
            let topic = try await firstTopic()
            let city = Self.city
            let zoom = 12
            let all = try await client.getClusters(query: .init(
                south: city.south, west: city.west, north: city.north, east: city.east, zoom: zoom, limit: 5000)).ok.body.json
            let query = Operations.GetClusters.Input.Query(
                south: city.south, west: city.west, north: city.north, east: city.east, zoom: zoom, limit: 5000, topic: topic.name)
            let ok = try await client.getClusters(query: query).ok
            let filtered = try ok.body.json
            #expect(!all.truncated && !filtered.truncated && filtered.total < all.total)
            #expect(filtered.clusters.map(\.photoCount).reduce(0, +) == topic.photoCount)
            #expect(filtered.clusters.map(\.locationCount).reduce(0, +) == topic.locationCount)
            let unfiltered = Dictionary(uniqueKeysWithValues: all.clusters.map { (cell($0, zoom: zoom), $0) })
            for cluster in filtered.clusters {
                let whole = try #require(unfiltered[cell(cluster, zoom: zoom)])
                #expect(cluster.photoCount <= whole.photoCount && cluster.locationCount <= whole.locationCount)
            }

            let variant = try await client.getClusters(query: .init(
                south: city.south, west: city.west, north: city.north, east: city.east, zoom: zoom, limit: 5000,
                topic: topic.name.uppercased())).ok
            #expect(try variant.body.json == filtered)
            _ = try await client.getClusters(query: query, headers: .init(ifNoneMatch: ok.headers.eTag)).notModified

            let unknown = try await client.getClusters(query: .init(
                south: city.south, west: city.west, north: city.north, east: city.east, zoom: zoom, topic: "no such topic"))
            #expect(try unknown.badRequest.body.applicationProblemJson.detail.contains("topic"))
        }

        @Test func topicOnSearch() async throws {
            let client = try makeClient()
            let topic = try await firstTopic()
            let all = try await client.search(query: .init(q: "street", limit: 5)).ok.body.json
            let query = Operations.Search.Input.Query(q: "street", topic: topic.name, limit: 5)
            let ok = try await client.search(query: query).ok
            let filtered = try ok.body.json
            #expect(filtered.total > 5 && filtered.total < all.total)
            #expect(filtered.results.map(\.value1.photoID) != all.results.map(\.value1.photoID))

            let variant = try await client.search(query: .init(q: "street", topic: topic.name.uppercased(), limit: 5)).ok
            #expect(try variant.body.json == filtered)
            _ = try await client.search(query: query, headers: .init(ifNoneMatch: ok.headers.eTag)).notModified

            // A cursor holds the topic: valid with it (in any case), not without it.
            let next = try #require(filtered.nextCursor)
            let second = try await client.search(query: .init(q: "street", topic: topic.name.lowercased(), limit: 5, cursor: next))
                .ok.body.json
            #expect(second.total == filtered.total)
            #expect(Set(second.results.map(\.value1.photoID)).isDisjoint(with: filtered.results.map(\.value1.photoID)))
            let withoutTopic = try await client.search(query: .init(q: "street", limit: 5, cursor: next)).badRequest
            #expect(try withoutTopic.body.applicationProblemJson.detail.contains("cursor"))

            let unknown = try await client.search(query: .init(q: "street", topic: "no such topic"))
            #expect(try unknown.badRequest.body.applicationProblemJson.detail.contains("topic"))
        }

        /// A tour with `topic` stops only where the topic's photos are, counting only
        /// them, and is the same tour whatever the topic's letter case.
        @Test func topicOnTour() async throws {
            let client = try makeClient()
            let topic = try await firstTopic()
            let plain = try await client.getTour(query: .init(lat: unionSquare.latitude, lon: unionSquare.longitude, minPhotos: 2))
                .ok.body.json
            let query = Operations.GetTour.Input.Query(
                lat: unionSquare.latitude, lon: unionSquare.longitude, minPhotos: 2, topic: topic.name)
            let ok = try await client.getTour(query: query).ok
            let tour = try ok.body.json
            #expect(!tour.stops.isEmpty && tour != plain)
            #expect(tour.photoCount == tour.stops.map(\.value1.photoCount).reduce(0, +))
            for stop in tour.stops {
                let path = Operations.GetLocation.Input.Path(locationID: stop.value1.locationID)
                let all = try await client.getLocation(path: path, query: .init(limit: 1)).ok.body.json
                let matching = try await client.getLocation(path: path, query: .init(topic: topic.name, limit: 3)).ok.body.json
                #expect(stop.value1.photoCount >= 2 && stop.value1.photoCount <= all.value1.photoCount)
                #expect(stop.value1.photoCount == matching.value1.photoCount)
                #expect(stop.value2.photos == matching.value2.photos)
            }

            let variant = try await client.getTour(query: .init(
                lat: unionSquare.latitude, lon: unionSquare.longitude, minPhotos: 2, topic: topic.name.uppercased())).ok
            #expect(try variant.body.json == tour)
            #expect(variant.headers.eTag == ok.headers.eTag)
            _ = try await client.getTour(query: query, headers: .init(ifNoneMatch: ok.headers.eTag)).notModified

            let unknown = try await client.getTour(query: .init(lat: unionSquare.latitude, lon: unionSquare.longitude, topic: "no such topic"))
            #expect(try unknown.badRequest.body.applicationProblemJson.detail.contains("topic"))
        }

        /// One location with `topic`, paged to the end: each matching photo once, as many
        /// as `photoCount`; its cursor is bound to the topic.
        @Test func topicOnLocation() async throws {
            let client = try makeClient()
            let topic = try await firstTopic()
            let city = Self.city
            // The location with the most of the topic's photos.
            let top = try await client.getRegion(query: .init(
                south: city.south, west: city.west, north: city.north, east: city.east, limit: 1, topic: topic.name)).ok.body.json
            let path = Operations.GetLocation.Input.Path(locationID: try #require(top.locations.first).value1.locationID)
            let all = try await client.getLocation(path: path, query: .init(limit: 100)).ok.body.json

            let ok = try await client.getLocation(path: path, query: .init(topic: topic.name, limit: 2)).ok
            let first = try ok.body.json
            #expect(first.value1.photoCount == top.locations.first?.value1.photoCount)
            #expect(first.value1.photoCount > 2 && first.value1.photoCount < all.value1.photoCount)
            var ids = first.value2.photos.map(\.photoID)
            var cursor = first.value2.nextCursor
            while let next = cursor {
                let page = try await client.getLocation(path: path, query: .init(topic: topic.name, limit: 100, cursor: next)).ok.body.json
                #expect(page.value1.photoCount == first.value1.photoCount)
                ids += page.value2.photos.map(\.photoID)
                cursor = page.value2.nextCursor
            }
            #expect(ids.count == first.value1.photoCount && Set(ids).count == ids.count)

            let variant = try await client.getLocation(path: path, query: .init(topic: topic.name.uppercased(), limit: 2)).ok
            #expect(try variant.body.json == first)
            #expect(variant.headers.eTag == ok.headers.eTag)
            _ = try await client.getLocation(path: path, query: .init(topic: topic.name, limit: 2), headers: .init(ifNoneMatch: ok.headers.eTag))
                .notModified

            // The cursor holds the topic.
            let other = try await client.getTopics().ok.body.json.topics[1].name
            let otherTopic = try await client.getLocation(path: path, query: .init(topic: other, cursor: first.value2.nextCursor)).badRequest
            #expect(try otherTopic.body.applicationProblemJson.detail.contains("cursor"))
            let noTopic = try await client.getLocation(path: path, query: .init(cursor: first.value2.nextCursor)).badRequest
            #expect(try noTopic.body.applicationProblemJson.detail.contains("cursor"))

            let unknown = try await client.getLocation(path: path, query: .init(topic: "no such topic")).badRequest
            #expect(try unknown.body.applicationProblemJson.detail.contains("topic"))
        }

        /// The initial great-circle bearing from one point to another, 0 ≤ b < 360.
        private func bearing(from a: (latitude: Double, longitude: Double), to b: (latitude: Double, longitude: Double)) -> Double {
            let phi1 = a.latitude * .pi / 180, phi2 = b.latitude * .pi / 180
            let deltaLambda = (b.longitude - a.longitude) * .pi / 180
            let y = sin(deltaLambda) * cos(phi2)
            let x = cos(phi1) * sin(phi2) - sin(phi1) * cos(phi2) * cos(deltaLambda)
            let degrees = atan2(y, x) * 180 / .pi
            return degrees < 0 ? degrees + 360 : degrees
        }

        /// The smaller angle between two directions, in degrees.
        private func angle(_ a: Double, _ b: Double) -> Double {
            let difference = abs(a - b).truncatingRemainder(dividingBy: 360)
            return min(difference, 360 - difference)
        }

        /// What am I facing: with `heading`, only the locations within `fov/2` of it (or
        /// within 15 m), each with its bearing; nearest first, as without it.
        @Test func facing() async throws {
            let client = try makeClient()
            let plain = try await client.getNearby(query: .init(lat: unionSquare.latitude, lon: unionSquare.longitude, limit: 100, photos: 0))
                .ok.body.json.locations
            #expect(plain.allSatisfy { $0.value2.bearing == nil })

            for (heading, fov) in [(90.0, 60.0), (0.0, 30.0), (359.5, 10.0), (200.0, nil as Double?)] {
                let query = Operations.GetNearby.Input.Query(
                    lat: unionSquare.latitude, lon: unionSquare.longitude, limit: 20, photos: 0, heading: heading, fov: fov)
                let ok = try await client.getNearby(query: query).ok
                let locations = try ok.body.json.locations
                #expect(locations.count == 20)
                let distances = locations.map(\.value2.distanceMeters)
                #expect(distances == distances.sorted())
                let halfAngle = (fov ?? 60) / 2
                for location in locations {
                    let bearing = try #require(location.value2.bearing)
                    #expect(bearing >= 0 && bearing < 360)
                    #expect(bearing == (bearing * 10).rounded() / 10)
                    let exact = self.bearing(from: unionSquare, to: (location.value1.latitude, location.value1.longitude))
                    #expect(angle(bearing, exact) <= 0.051)
                    #expect(angle(bearing, heading) <= halfAngle + 0.05 || location.value2.distanceMeters <= 15.01)
                }
                _ = try await client.getNearby(query: query, headers: .init(ifNoneMatch: ok.headers.eTag)).notModified
            }

            // A field of view of 360: every location, in the same order, each with its bearing.
            let around = try await client.getNearby(query: .init(
                lat: unionSquare.latitude, lon: unionSquare.longitude, limit: 100, photos: 0, heading: 123, fov: 360)).ok.body.json.locations
            #expect(around.map(\.value1) == plain.map(\.value1))
            #expect(around.allSatisfy { $0.value2.bearing != nil })

            // At a location's own point: it is first, 0 m away, with bearing 0, whatever the heading.
            let pin = try #require(plain.first).value1
            let here = try await client.getNearby(query: .init(lat: pin.latitude, lon: pin.longitude, limit: 3, heading: 180, fov: 1))
                .ok.body.json.locations
            let first = try #require(here.first)
            #expect(first.value1.locationID == pin.locationID)
            #expect(first.value2.distanceMeters == 0 && first.value2.bearing == 0)

            let fovAlone = try await client.getNearby(query: .init(lat: unionSquare.latitude, lon: unionSquare.longitude, fov: 90)).badRequest
            #expect(try fovAlone.body.applicationProblemJson.detail.contains("fov"))
            let badHeading = try await client.getNearby(query: .init(lat: unionSquare.latitude, lon: unionSquare.longitude, heading: 360))
                .badRequest
            #expect(try badHeading.body.applicationProblemJson.detail.contains("heading"))
            let badFov = try await client.getNearby(query: .init(lat: unionSquare.latitude, lon: unionSquare.longitude, heading: 10, fov: 0))
                .badRequest
            #expect(try badFov.body.applicationProblemJson.detail.contains("fov"))
        }

        /// Polls `/photos/popular` (it may lag the favorites by up to 2 s) for up to about
        /// 3 s until `done` holds for its photos; returns the last list.
        private func pollPopular(
            _ client: Client, until done: ([Components.Schemas.PopularPhoto]) -> Bool
        ) async throws -> [Components.Schemas.PopularPhoto] {
            var photos: [Components.Schemas.PopularPhoto] = []
            for attempt in 0..<30 {
                if attempt > 0 { try await Task.sleep(for: .milliseconds(100)) }
                photos = try await client.getPopularPhotos().ok.body.json.photos
                if done(photos) { break }
            }
            return photos
        }

        /// Three users save one photo: it is listed with `saveCount` 3; one removes it
        /// and it leaves the list (fewer than 3 savers are never shown).
        @Test func popularPhotos() async throws {
            let client = try makeClient()
            // A photo far from Union Square, where the other tests save theirs.
            let tottenville = try await client.getNearby(query: .init(lat: 40.5028, lon: -74.2518, limit: 1, photos: 1))
                .ok.body.json.locations
            let photoID = try #require(tottenville.first?.value2.photos.first?.photoID)
            var users: [TestUser] = []
            for name in ["abbott", "sperr", "levick"] {
                users.append(try await TestUser.register(name))
            }

            for user in users.prefix(2) {
                _ = try await user.client.saveFavorite(path: .init(photoID: photoID)).created
            }
            try await Task.sleep(for: .milliseconds(1500))
            let two = try await client.getPopularPhotos().ok.body.json
            #expect(two.days == 30)
            #expect(!two.photos.contains { $0.value1.photoID == photoID })

            _ = try await users[2].client.saveFavorite(path: .init(photoID: photoID)).created
            let listed = try await pollPopular(client) { $0.contains { $0.value1.photoID == photoID } }
            let popular = try #require(listed.first { $0.value1.photoID == photoID })
            #expect(popular.value2.saveCount == 3)
            let photo = try await client.getPhoto(path: .init(photoID: photoID)).ok.body.json
            #expect(popular.value1.locationID == photo.value2.locationID && popular.value1.borough == photo.value2.borough)
            let counts = listed.map(\.value2.saveCount)
            #expect(counts == counts.sorted(by: >) && counts.allSatisfy { $0 >= 3 })

            // A signed-in user gets the same list; `days` and `limit` are echoed and applied.
            let week = try await users[0].client.getPopularPhotos(query: .init(days: 7, limit: 1)).ok.body.json
            #expect(week.days == 7 && week.photos.count == 1)

            // No ETag and no Cache-Control: the list follows the favorites.
            let recorder = ResponseHeaderRecorder()
            let recorded = Client(serverURL: try #require(RunningServer.url), transport: URLSessionTransport(), middlewares: [recorder])
            _ = try await recorded.getPopularPhotos().ok
            #expect(recorder.last?[.eTag] == nil && recorder.last?[.cacheControl] == nil)
            #expect(recorder.last?[.contentType]?.hasPrefix("application/json") == true)

            _ = try await users[1].client.removeFavorite(path: .init(photoID: photoID)).noContent
            let after = try await pollPopular(client) { !$0.contains { $0.value1.photoID == photoID } }
            #expect(!after.contains { $0.value1.photoID == photoID })

            let zeroDays = try await client.getPopularPhotos(query: .init(days: 0)).badRequest
            #expect(try zeroDays.body.applicationProblemJson.detail.contains("days"))
            let tooMany = try await client.getPopularPhotos(query: .init(limit: 101)).badRequest
            #expect(try tooMany.body.applicationProblemJson.detail.contains("limit"))
        }
    }
}

/// Keeps the header fields of the last response, for the headers the generated client
/// does not expose (those the document says are absent).
final class ResponseHeaderRecorder: ClientMiddleware, @unchecked Sendable {
    private let lock = NSLock()
    private var fields: HTTPFields?

    var last: HTTPFields? { lock.withLock { fields } }

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        lock.withLock { fields = response.headerFields }
        return (response, responseBody)
    }
}
