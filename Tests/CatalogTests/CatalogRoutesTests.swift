import API
import Catalog
import Foundation
import HTTPServer
import Testing
import TestSupport

@Suite struct CatalogRoutesTests {
    static let routes: Result<(CatalogRoutes, Router, PhotoCatalog), any Error> = Result {
        let catalog = try CatalogFixture.load().catalog
        let routes = CatalogRoutes(catalog: catalog)
        var router = Router()
        CatalogRoutes.register(in: &router) { routes }
        return (routes, router, catalog)
    }

    /// A GET through the server's request pipeline, without a socket.
    static func get(_ path: String, _ query: [(String, String)] = []) throws -> RawHTTPClient.Response {
        let (_, router, _) = try routes.get()
        return try InMemoryHTTPClient(router: router).get(path, query: query)
    }

    static let nearbyBase = [("lat", "40.7306"), ("lon", "-73.9866")]
    static let regionBase = [("south", "40.70"), ("west", "-74.02"), ("north", "40.75"), ("east", "-73.97")]

    /// Each case: a path, its query, and the parameter the 400 must name.
    static let badRequests: [(path: String, query: [(String, String)], parameter: String)] = [
        ("/nearby", [("lon", "-73.9")], "lat"),
        ("/nearby", [("lat", "40.7")], "lon"),
        ("/nearby", [("lat", "NaN"), ("lon", "-73.9")], "lat"),
        ("/nearby", [("lat", "nan"), ("lon", "-73.9")], "lat"),
        ("/nearby", [("lat", "inf"), ("lon", "-73.9")], "lat"),
        ("/nearby", [("lat", "-infinity"), ("lon", "-73.9")], "lat"),
        ("/nearby", [("lat", "1e999"), ("lon", "-73.9")], "lat"),
        ("/nearby", [("lat", "40.7"), ("lon", "-1e999")], "lon"),
        ("/nearby", [("lat", "forty"), ("lon", "-73.9")], "lat"),
        ("/nearby", [("lat", ""), ("lon", "-73.9")], "lat"),
        ("/nearby", [("lat", " 40.7"), ("lon", "-73.9")], "lat"),
        ("/nearby", [("lat", "0x1p4"), ("lon", "-73.9")], "lat"),
        ("/nearby", [("lat", "40.7.1"), ("lon", "-73.9")], "lat"),
        ("/nearby", [("lat", "1e"), ("lon", "-73.9")], "lat"),
        ("/nearby", [("lat", "90.0001"), ("lon", "-73.9")], "lat"),
        ("/nearby", [("lat", "-91"), ("lon", "-73.9")], "lat"),
        ("/nearby", [("lat", "40.7"), ("lon", "180.5")], "lon"),
        ("/nearby", [("lat", "40.7"), ("lon", "-181")], "lon"),
        ("/nearby", [("lat", "40.7"), ("lat", "40.8"), ("lon", "-73.9")], "lat"),
        ("/nearby", nearbyBase + [("limit", "0")], "limit"),
        ("/nearby", nearbyBase + [("limit", "101")], "limit"),
        ("/nearby", nearbyBase + [("limit", "2.5")], "limit"),
        ("/nearby", nearbyBase + [("limit", "ten")], "limit"),
        ("/nearby", nearbyBase + [("limit", "")], "limit"),
        ("/nearby", nearbyBase + [("limit", "99999999999999999999999")], "limit"),
        ("/nearby", nearbyBase + [("limit", "5"), ("limit", "6")], "limit"),
        ("/nearby", nearbyBase + [("radius", "0")], "radius"),
        ("/nearby", nearbyBase + [("radius", "-5")], "radius"),
        ("/nearby", nearbyBase + [("radius", "50000.1")], "radius"),
        ("/nearby", nearbyBase + [("radius", "NaN")], "radius"),
        ("/nearby", nearbyBase + [("radius", "inf")], "radius"),
        ("/nearby", nearbyBase + [("radius", "far")], "radius"),
        ("/nearby", nearbyBase + [("from", "1950"), ("to", "1900")], "from"),
        ("/nearby", nearbyBase + [("from", "19th century")], "from"),
        ("/nearby", nearbyBase + [("to", "1930.5")], "to"),
        ("/nearby", nearbyBase + [("borough", "Gotham")], "borough"),
        ("/nearby", nearbyBase + [("borough", "")], "borough"),
        ("/nearby", nearbyBase + [("photos", "-1")], "photos"),
        ("/nearby", nearbyBase + [("photos", "51")], "photos"),
        ("/nearby", nearbyBase + [("photos", "all")], "photos"),
        ("/region", [("west", "-74"), ("north", "41"), ("east", "-73")], "south"),
        ("/region", [("south", "40"), ("north", "41"), ("east", "-73")], "west"),
        ("/region", [("south", "40"), ("west", "-74"), ("east", "-73")], "north"),
        ("/region", [("south", "40"), ("west", "-74"), ("north", "41")], "east"),
        ("/region", [("south", "41"), ("west", "-74"), ("north", "40"), ("east", "-73")], "south"),
        ("/region", [("south", "-90.5"), ("west", "-74"), ("north", "40"), ("east", "-73")], "south"),
        ("/region", [("south", "40"), ("west", "-74"), ("north", "91"), ("east", "-73")], "north"),
        ("/region", [("south", "40"), ("west", "-180.01"), ("north", "41"), ("east", "-73")], "west"),
        ("/region", [("south", "40"), ("west", "-74"), ("north", "41"), ("east", "1e999")], "east"),
        ("/region", [("south", "NaN"), ("west", "-74"), ("north", "41"), ("east", "-73")], "south"),
        ("/region", regionBase + [("limit", "0")], "limit"),
        ("/region", regionBase + [("limit", "5001")], "limit"),
        ("/region", regionBase + [("from", "1900"), ("to", "1899")], "from"),
        ("/region", regionBase + [("borough", "Jersey")], "borough"),
        ("/region", regionBase + [("east", "-73.9")], "east"),
    ]

    @Test(arguments: [
        ("+40.7306", "-73.9866", "500"), ("4.07306e1", "-7.39866E+1", ".5e3"), ("40730.6e-3", "-73.98660", "500."),
    ])
    func everyDecimalSpellingOfANumberIsAccepted(_ lat: String, _ lon: String, _ radius: String) throws {
        let expected = try Self.get("/nearby", Self.nearbyBase + [("radius", "500")])
        let response = try Self.get("/nearby", [("lat", lat), ("lon", lon), ("radius", radius)])
        #expect(response.status == 200)
        #expect(response.body == expected.body && response.header("ETag") == expected.header("ETag"))
    }

    @Test(arguments: badRequests.indices)
    func badParametersAre400sNamingThem(_ index: Int) throws {
        let (path, query, parameter) = Self.badRequests[index]
        let response = try Self.get(path, query)
        #expect(response.status == 400 && response.header("Content-Type") == "application/problem+json")
        #expect(response.problemDetail.contains("'\(parameter)'"), "\(path) \(query): \(response.problemDetail)")
    }

    @Test func unknownPhotoIs404() throws {
        #expect(try Self.get("/photos/no-such-photo").status == 404)
    }

    @Test func nearbyResponseShape() throws {
        let response = try Self.get("/nearby", Self.nearbyBase + [("limit", "3"), ("photos", "2"), ("unknown", "ignored")])
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == HTTPResponse.jsonContentType)
        let body = try response.object()
        #expect(body["latitude"] as? Double == 40.7306 && body["longitude"] as? Double == -73.9866)
        let locations = try #require(body["locations"] as? [[String: Any]])
        #expect(locations.count == 3)
        let (_, _, catalog) = try Self.routes.get()
        let expected = catalog.nearby(NearbyQuery(latitude: 40.7306, longitude: -73.9866, limit: 3))
        for (json, match) in zip(locations, expected) {
            let location = catalog.locations[match.location]
            #expect(
                Set(json.keys) == [
                    "locationID", "latitude", "longitude", "borough", "intersection", "photoCount", "distanceMeters", "photos",
                ])
            #expect(json["locationID"] as? String == location.locationID)
            #expect(json["latitude"] as? Double == location.latitude && json["longitude"] as? Double == location.longitude)
            #expect(json["borough"] as? String == location.borough?.rawValue)
            #expect(json["intersection"] as? String == location.intersection)
            #expect(json["photoCount"] as? Int == location.photos.count)
            #expect(abs((json["distanceMeters"] as? Double ?? -1) - match.distance) <= 0.005)
            let photos = try #require(json["photos"] as? [[String: Any]])
            #expect(photos.map { $0["photoID"] as? String } == location.photos.prefix(2).map { catalog.photos[$0].photoID })
            for (summary, index) in zip(photos, location.photos) {
                try Self.expectSummary(summary, catalog.photos[index])
            }
        }
    }

    @Test func nearbyFiltersPhotosAndCounts() throws {
        let (_, _, catalog) = try Self.routes.get()
        let query = [("lat", "40.75"), ("lon", "-73.99"), ("from", "1925"), ("to", "1930"), ("borough", "MANHATTAN"), ("photos", "50"), ("limit", "20")]
        let locations = try #require(try Self.get("/nearby", query).object()["locations"] as? [[String: Any]])
        #expect(locations.count == 20)
        let filter = PhotoFilter(fromYear: 1925, toYear: 1930)
        for json in locations {
            #expect(json["borough"] as? String == "Manhattan")
            let photos = try #require(json["photos"] as? [[String: Any]])
            let index = try #require(catalog.locations.firstIndex { $0.locationID == json["locationID"] as? String })
            let matching = catalog.locations[index].photos.filter { filter.matches(years: catalog.photos[$0].yearNumbers) }
            #expect(json["photoCount"] as? Int == matching.count)
            #expect(photos.map { $0["photoID"] as? String } == matching.prefix(50).map { catalog.photos[$0].photoID })
        }
    }

    /// Locations with fewer photos than asked for and with more: each lists its first ones, complete and in order.
    @Test func nearbyListsEachLocationsFirstPhotos() throws {
        let (_, _, catalog) = try Self.routes.get()
        let query = [("lat", "40.7127"), ("lon", "-74.0059"), ("photos", "8"), ("limit", "40")]
        let locations = try #require(try Self.get("/nearby", query).object()["locations"] as? [[String: Any]])
        var sizes: Set<Bool> = []
        for json in locations {
            let index = try #require(catalog.locations.firstIndex { $0.locationID == json["locationID"] as? String })
            let expected = catalog.locations[index].photos.prefix(8)
            sizes.insert(catalog.locations[index].photos.count > 8)
            let photos = try #require(json["photos"] as? [[String: Any]])
            #expect(photos.map { $0["photoID"] as? String } == expected.map { catalog.photos[$0].photoID })
            for (summary, photo) in zip(photos, expected) { try Self.expectSummary(summary, catalog.photos[photo]) }
        }
        #expect(sizes == [true, false], "the query should reach both small and large locations")
    }

    @Test func nearbyWithNoPhotosPerLocation() throws {
        let locations = try #require(try Self.get("/nearby", Self.nearbyBase + [("photos", "0")]).object()["locations"] as? [[String: Any]])
        #expect(locations.count == 10)
        #expect(locations.allSatisfy { ($0["photos"] as? [Any])?.isEmpty == true })
    }

    @Test func regionResponseShape() throws {
        let (_, _, catalog) = try Self.routes.get()
        let response = try Self.get("/region", Self.regionBase + [("limit", "5")])
        let body = try response.object()
        #expect(Set(body.keys) == ["locations", "total", "truncated"])
        let result = catalog.region(RegionQuery(south: 40.70, west: -74.02, north: 40.75, east: -73.97, limit: 5))
        #expect(body["total"] as? Int == result.total && result.total > 5)
        #expect(body["truncated"] as? Bool == true)
        let locations = try #require(body["locations"] as? [[String: Any]])
        #expect(locations.map { $0["locationID"] as? String } == result.matches.map { catalog.locations[$0.location].locationID })
        for (json, match) in zip(locations, result.matches) {
            #expect(
                Set(json.keys) == ["locationID", "latitude", "longitude", "borough", "intersection", "photoCount", "thumbnailURL"])
            #expect(json["photoCount"] as? Int == match.photoCount)
            #expect(json["thumbnailURL"] as? String == catalog.photos[match.firstPhoto].thumbnailURL)
        }
        let whole = try Self.get("/region", [("south", "-90"), ("west", "-180"), ("north", "90"), ("east", "180"), ("limit", "5000")]).object()
        #expect(whole["total"] as? Int == 9_007 && whole["truncated"] as? Bool == true)
        #expect((whole["locations"] as? [Any])?.count == 5_000)
        let empty = try Self.get("/region", [("south", "0"), ("west", "0"), ("north", "1"), ("east", "1")]).object()
        #expect(empty["total"] as? Int == 0 && empty["truncated"] as? Bool == false && (empty["locations"] as? [Any])?.isEmpty == true)
    }

    @Test func photoResponseHasEveryField() throws {
        let (_, _, catalog) = try Self.routes.get()
        // Each kind of photo must be in the catalog, or the test would check nothing.
        let samples = [
            try #require(catalog.photos.firstIndex { $0.title == nil && $0.folder != nil }),
            try #require(catalog.photos.firstIndex { $0.folder == nil && $0.text == nil }),
            try #require(catalog.photos.firstIndex { $0.date == nil }),
            try #require(catalog.photos.firstIndex { $0.years.count > 2 }),
        ]
        for index in samples {
            let photo = catalog.photos[index]
            let location = catalog.locations[photo.locationIndex]
            let json = try Self.get("/photos/\(photo.photoID)").object()
            #expect(
                Set(json.keys) == [
                    "photoID", "thumbnailURL", "photoURL", "imageURL", "width", "height", "title", "date", "locationID",
                    "latitude", "longitude", "borough", "intersection", "folder", "text", "years", "nyplURL",
                ])
            try Self.expectSummary(json, photo)
            #expect(json["locationID"] as? String == location.locationID)
            #expect(json["latitude"] as? Double == location.latitude)
            #expect(json["longitude"] as? Double == location.longitude)
            #expect(json["borough"] as? String == location.borough?.rawValue)
            #expect(json["intersection"] as? String == photo.intersection)
            #expect(json["folder"] as? String == photo.folder && (photo.folder != nil || json["folder"] is NSNull))
            #expect(json["text"] as? String == photo.text && (photo.text != nil || json["text"] is NSNull))
            #expect(json["years"] as? [String] == photo.years)
            #expect(json["nyplURL"] as? String == photo.nyplURL)
        }
    }

    @Test func boroughsList() throws {
        let response = try Self.get("/boroughs")
        let list = try #require(JSONSerialization.jsonObject(with: Data(response.body)) as? [[String: Any]])
        #expect(list.map { $0["name"] as? String } == ["Manhattan", "Bronx", "Brooklyn", "Queens", "Staten Island"])
        #expect(list.reduce(0) { $0 + ($1["locationCount"] as? Int ?? 0) } <= 9_007)
        let (_, _, catalog) = try Self.routes.get()
        for (json, summary) in zip(list, catalog.boroughSummaries) {
            #expect(json["photoCount"] as? Int == summary.photoCount)
            let box = try #require(json["bbox"] as? [String: Double])
            #expect(box == ["south": summary.bbox?.south, "west": summary.bbox?.west, "north": summary.bbox?.north, "east": summary.bbox?.east])
        }
    }

    @Test func etagsAreStrongAndFollowTheQuery() throws {
        let first = try Self.get("/nearby", Self.nearbyBase)
        let same = try Self.get("/nearby", [("lon", "-73.98660"), ("lat", "40.7306")])
        let other = try Self.get("/nearby", Self.nearbyBase + [("limit", "11")])
        for response in [first, same, other, try Self.get("/boroughs"), try Self.get("/region", Self.regionBase)] {
            let tag = try #require(response.header("ETag"))
            #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && !tag.hasPrefix("W/"))
            #expect(tag.utf8.dropFirst().dropLast().allSatisfy { $0 == 0x21 || ($0 >= 0x23 && $0 <= 0x7E) })
        }
        #expect(first.header("ETag") == same.header("ETag") && first.body == same.body)
        #expect(first.header("ETag") != other.header("ETag"))
        let (_, _, catalog) = try Self.routes.get()
        let photos = [catalog.photos[0].photoID, catalog.photos[1].photoID]
        #expect(try Self.get("/photos/\(photos[0])").header("ETag") != Self.get("/photos/\(photos[1])").header("ETag"))
    }

    /// The one PlacedPhoto writer (favorites, recents, walk entries, search results): the
    /// summary's members, then those of the photo's location, in the contract's order.
    @Test func placedPhotosOfRandomPhotos() throws {
        let (routes, _, catalog) = try Self.routes.get()
        let oracle = try CatalogFixture.load().oracle
        var locationOfPhoto: [String: Oracle.Location] = [:]
        for location in oracle.locations {
            for photo in location.photos { locationOfPhoto[photo.id] = location }
        }
        var random = SeededGenerator(seed: 30)
        let keys = [
            "photoID", "thumbnailURL", "photoURL", "imageURL", "width", "height", "title", "date",
            "locationID", "latitude", "longitude", "borough", "intersection",
        ]
        for _ in 0..<300 {
            let photo = catalog.photos[Int.random(in: 0..<catalog.photos.count, using: &random)]
            let bytes = try #require(routes.placedPhotos.placedPhotoJSON(photoID: photo.photoID))
            let json = try #require(JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
            #expect(Set(json.keys) == Set(keys))
            let text = String(decoding: bytes, as: UTF8.self)
            let positions = keys.map { text.range(of: "\"\($0)\":")?.lowerBound }
            #expect(positions.allSatisfy { $0 != nil } && positions.map { $0! } == positions.map { $0! }.sorted(), "member order")
            try Self.expectSummary(json, photo)
            let location = try #require(locationOfPhoto[photo.photoID])
            #expect(json["locationID"] as? String == location.id)
            #expect(json["latitude"] as? Double == location.latitude && json["longitude"] as? Double == location.longitude)
            #expect(json["borough"] as? String == location.borough?.rawValue && (location.borough != nil || json["borough"] is NSNull))
            let intersection = Oracle.intersection(location.photos)
            #expect(json["intersection"] as? String == intersection && (intersection != nil || json["intersection"] is NSNull))
        }
        #expect(routes.placedPhotos.placedPhotoJSON(photoID: "nope") == nil)
    }

    static func expectSummary(_ json: [String: Any], _ photo: CatalogPhoto) throws {
        #expect(json["photoID"] as? String == photo.photoID)
        #expect(json["thumbnailURL"] as? String == photo.thumbnailURL)
        #expect(json["photoURL"] as? String == photo.photoURL)
        #expect(json["imageURL"] as? String == "/photos/\(photo.photoID)/image")
        #expect(json["width"] as? Int == photo.width && json["height"] as? Int == photo.height)
        #expect(json["title"] as? String == photo.title && (photo.title != nil || json["title"] is NSNull))
        #expect(json["date"] as? String == photo.date && (photo.date != nil || json["date"] is NSNull))
    }
}
