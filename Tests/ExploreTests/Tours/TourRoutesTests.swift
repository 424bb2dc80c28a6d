import Accounts
import Basics
import Catalog
import Explore
import Foundation
import TestSupport
import Testing

/// `GET /tours` and `GET /tours/favorites` through the server's request pipeline.
@Suite struct TourRoutesTests {
    /// One application for the suite, reached without a socket. Each test uses its own
    /// connection and, for favorites, its own user.
    static let server = Result { try TestApplication(listening: false) }

    static func stops(_ response: RawHTTPClient.Response) throws -> [[String: Any]] {
        try #require(try response.object()["stops"] as? [[String: Any]])
    }

    /// The members every body has, and the totals that follow from its stops.
    static func expectTourBody(_ body: [String: Any], latitude: Double, longitude: Double) throws {
        #expect(Set(body.keys) == ["start", "stops", "distanceMeters", "durationMinutes", "photoCount"])
        let start = try #require(body["start"] as? [String: Double])
        #expect(start == ["latitude": latitude, "longitude": longitude])
        let stops = try #require(body["stops"] as? [[String: Any]])
        var previous = TourOracle.Point(latitude: latitude, longitude: longitude)
        var meters = 0.0
        var photos = 0
        for stop in stops {
            #expect(
                Set(stop.keys)
                    == ["locationID", "latitude", "longitude", "borough", "intersection", "photoCount", "legMeters", "photos"])
            let point = TourOracle.Point(
                latitude: try #require(stop["latitude"] as? Double), longitude: try #require(stop["longitude"] as? Double))
            let leg = TourOracle.meters(previous, point)
            #expect(abs(try #require(stop["legMeters"] as? Double) - leg) <= 0.005 + 1e-9)
            meters += leg
            photos += try #require(stop["photoCount"] as? Int)
            previous = point
        }
        #expect(abs(try #require(body["distanceMeters"] as? Double) - meters) <= 0.005 + 1e-6)
        let minutes = meters / 75 + 3 * Double(stops.count)
        #expect(abs(try #require(body["durationMinutes"] as? Double) - minutes) <= 0.05 + 1e-9)
        #expect(body["photoCount"] as? Int == photos)
    }

    @Test func tourIsThePlannersWithItsPhotos() throws {
        let app = try Self.server.get()
        let catalog = try SharedCatalog.catalog()
        let client = app.inMemoryClient()
        let response = try client.request("GET", "/tours?lat=40.7306&lon=-73.9866&from=1900&to=1940&minPhotos=3")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json; charset=utf-8")
        let body = try response.object()
        try Self.expectTourBody(body, latitude: 40.7306, longitude: -73.9866)

        let filter = PhotoFilter(fromYear: 1900, toYear: 1940)
        let planned = catalog.tourProblem(
            TourQuery(
                latitude: 40.7306, longitude: -73.9866, budget: TourBudget(minutes: 60, maxStops: 8), minPhotos: 3,
                filter: filter)
        ).bestTour()
        let stops = try Self.stops(response)
        #expect(!stops.isEmpty)
        #expect(stops.map { $0["locationID"] as? String } == planned.stops.map { catalog.locations[$0.site.location].locationID })
        for (stop, plannedStop) in zip(stops, planned.stops) {
            let photos = try #require(stop["photos"] as? [[String: Any]])
            let matching = catalog.photos[catalog.locations[plannedStop.site.location].photos].filter { photo in
                photo.years.contains { Int($0).map { (1900...1940).contains($0) } ?? false }
            }
            #expect(stop["photoCount"] as? Int == matching.count)
            #expect(photos.map { $0["photoID"] as? String } == matching.prefix(3).map(\.photoID))
        }
    }

    @Test func sameQuerySameTagAnd304HeadAndGzip() throws {
        let app = try Self.server.get()
        let client = app.inMemoryClient()
        let first = try client.request("GET", "/tours?lat=40.75&lon=-73.99&borough=manhattan")
        let same = try client.request(
            "GET", "/tours?lon=-73.990&lat=4.075e1&borough=MANHATTAN&minutes=60&stops=8&minPhotos=5")
        let other = try client.request("GET", "/tours?lat=40.75&lon=-73.99&borough=manhattan&stops=7")
        #expect(first.status == 200 && same.status == 200 && other.status == 200)
        let tag = try #require(first.header("ETag"))
        #expect(tag.hasPrefix("\"") && !tag.hasPrefix("W/"))
        #expect(same.header("ETag") == tag && same.body == first.body)
        #expect(other.header("ETag") != tag)

        let notModified = try client.request("GET", "/tours?lat=40.75&lon=-73.99&borough=manhattan", headers: [("If-None-Match", tag)])
        #expect(notModified.status == 304 && notModified.body.isEmpty)

        let head = try client.request("HEAD", "/tours?lat=40.75&lon=-73.99&borough=manhattan")
        #expect(head.status == 200 && head.header("ETag") == tag && head.body.isEmpty)
        #expect(head.header("Content-Length") == String(first.body.count))

        let zipped = try client.request("GET", "/tours?lat=40.75&lon=-73.99&borough=manhattan", headers: [("Accept-Encoding", "gzip")])
        #expect(zipped.status == 200 && zipped.header("Content-Encoding") == "gzip")
        #expect(try gunzip(zipped.body) == first.body)
    }

    @Test func nothingQualifiesMeansNoStops() throws {
        let app = try Self.server.get()
        let client = app.inMemoryClient()
        for query in ["lat=40.58&lon=-74.15&minPhotos=100", "lat=0&lon=0", "lat=40.58&lon=-74.15&borough=bronx&minutes=10"] {
            let response = try client.request("GET", "/tours?\(query)")
            #expect(response.status == 200, "\(query)")
            let body = try response.object()
            try Self.expectTourBody(body, latitude: try #require((body["start"] as? [String: Double])?["latitude"]),
                longitude: try #require((body["start"] as? [String: Double])?["longitude"]))
            #expect((body["stops"] as? [Any])?.isEmpty == true, "\(query)")
            #expect(body["photoCount"] as? Int == 0 && body["distanceMeters"] as? Double == 0 && body["durationMinutes"] as? Double == 0)
        }
    }

    /// Each case: a query and the parameter its 400 must name.
    static let badQueries: [(query: String, parameter: String)] = [
        ("lon=-73.99", "lat"), ("lat=40.75", "lon"), ("lat=91&lon=-73.99", "lat"), ("lat=40.75&lon=-180.5", "lon"),
        ("lat=NaN&lon=-73.99", "lat"), ("lat=40.75&lon=1e999", "lon"), ("lat=&lon=-73.99", "lat"),
        ("lat=40.75&lon=-73.99&minutes=9", "minutes"), ("lat=40.75&lon=-73.99&minutes=241", "minutes"),
        ("lat=40.75&lon=-73.99&minutes=60.5", "minutes"), ("lat=40.75&lon=-73.99&minutes=", "minutes"),
        ("lat=40.75&lon=-73.99&minutes=60&minutes=61", "minutes"),
        ("lat=40.75&lon=-73.99&stops=1", "stops"), ("lat=40.75&lon=-73.99&stops=21", "stops"),
        ("lat=40.75&lon=-73.99&stops=eight", "stops"),
        ("lat=40.75&lon=-73.99&minPhotos=0", "minPhotos"), ("lat=40.75&lon=-73.99&minPhotos=101", "minPhotos"),
        ("lat=40.75&lon=-73.99&minPhotos=0x5", "minPhotos"),
        ("lat=40.75&lon=-73.99&from=1950&to=1900", "from"), ("lat=40.75&lon=-73.99&from=-10000", "from"),
        ("lat=40.75&lon=-73.99&to=10000", "to"), ("lat=40.75&lon=-73.99&to=19th", "to"),
        ("lat=40.75&lon=-73.99&borough=Gotham", "borough"), ("lat=40.75&lon=-73.99&borough=", "borough"),
    ]

    @Test func badParametersAre400sNamingThem() throws {
        let app = try Self.server.get()
        let client = app.inMemoryClient()
        for (query, parameter) in Self.badQueries {
            let response = try client.request("GET", "/tours?\(query)")
            #expect(response.status == 400, "\(query)")
            #expect(response.header("Content-Type") == "application/problem+json", "\(query)")
            let detail = response.problemDetail
            #expect(detail.contains("'\(parameter)'"), "\(query): \(detail)")
        }
        #expect(try client.request("GET", "/tours?lat=40.75&lon=-73.99").status == 200)
    }

    // MARK: Favorites

    @Test func favoritesTourNeedsAToken() throws {
        let app = try Self.server.get()
        let client = app.inMemoryClient()
        let anonymous = try client.request("GET", "/tours/favorites?lat=40.75&lon=-73.99")
        #expect(anonymous.status == 401 && anonymous.header("WWW-Authenticate") == #"Bearer realm="past-nyc""#)
        #expect(anonymous.header("Content-Type") == "application/problem+json")
        let forged = try client.requestJSON("GET", "/tours/favorites?lat=40.75&lon=-73.99", token: "not-a-token")
        #expect(forged.status == 401 && forged.header("WWW-Authenticate")?.contains("invalid_token") == true)
        let token = try client.registerUser(named: "lewis.hine")
        for (query, parameter) in [("lon=-73.99", "lat"), ("lat=40.75&lon=200", "lon"), ("lat=x&lon=-73.99", "lat")] {
            let response = try client.requestJSON("GET", "/tours/favorites?\(query)", token: token)
            #expect(response.status == 400)
            #expect((try response.object()["detail"] as? String)?.contains("'\(parameter)'") == true)
        }
        let empty = try client.requestJSON("GET", "/tours/favorites?lat=40.75&lon=-73.99", token: token)
        #expect(empty.status == 200)
        try Self.expectTourBody(try empty.object(), latitude: 40.75, longitude: -73.99)
        #expect(try Self.stops(empty).isEmpty)
    }

    /// A few favorite locations: the shortest path through them, each stop with the
    /// caller's photos there, newest first, and the count of all its photos.
    @Test func favoritesTourTakesTheShortestPath() throws {
        let app = try Self.server.get()
        let catalog = try SharedCatalog.catalog()
        let client = app.inMemoryClient()
        let token = try client.registerUser(named: "berenice.abbott")

        // Seven locations around Union Square with two photos or more; two favorites at the first.
        let near = catalog.nearby(NearbyQuery(latitude: 40.7359, longitude: -73.9911, limit: 60))
            .filter { catalog.locations[$0.location].photos.count >= 2 }
        let chosen = stride(from: 0, to: 56, by: 8).map { near[$0].location }
        var saved: [Int: [String]] = [:]
        for (index, location) in chosen.enumerated() {
            let range = catalog.locations[location].photos
            let photos = index == 0 ? [range.lowerBound, range.lowerBound + 1] : [range.lowerBound]
            for photo in photos {
                let photoID = catalog.photos[photo].photoID
                #expect(try client.requestJSON("PUT", "/favorites/\(photoID)", token: token).status == 201)
                saved[location, default: []].insert(photoID, at: 0)
            }
        }
        // A favorite whose photo is no longer in the catalog is skipped.
        let accounts = try Accounts(
            dataDirectory: app.dataDirectory.path, commonPasswordsPath: PackageRoot.path + "/Data/common-passwords.txt",
            passwordCost: .test)
        let user = try accounts.sessions.authenticate(token: token)
        _ = try Result.awaiting { accounts.favorites.save(user, photoID: "gone-from-the-catalog", completion: $0) }

        let response = try client.requestJSON("GET", "/tours/favorites?lat=40.7306&lon=-73.9866", token: token)
        #expect(response.status == 200)
        #expect(response.header("ETag") == nil)
        try Self.expectTourBody(try response.object(), latitude: 40.7306, longitude: -73.9866)
        let stops = try Self.stops(response)
        let byID = Dictionary(uniqueKeysWithValues: chosen.map { (catalog.locations[$0].locationID, $0) })
        let visited = try stops.map { stop in
            let locationID = try #require(stop["locationID"] as? String)
            return try #require(byID[locationID])
        }
        #expect(Set(visited) == Set(chosen) && visited.count == chosen.count)
        for (stop, location) in zip(stops, visited) {
            #expect(stop["photoCount"] as? Int == catalog.locations[location].photos.count)
            let photos = try #require(stop["photos"] as? [[String: Any]])
            #expect(photos.map { $0["photoID"] as? String } == (saved[location] ?? []).map { Optional($0) })
        }
        let start = TourOracle.Point(latitude: 40.7306, longitude: -73.9866)
        let shortest = TourOracle.shortestOpenPath(
            start: start,
            points: chosen.map { TourOracle.Point(latitude: catalog.locations[$0].latitude, longitude: catalog.locations[$0].longitude) })
        #expect(abs(try #require(try response.object()["distanceMeters"] as? Double) - shortest) <= 0.005 + 1e-6)
    }

    /// More than 50 favorite locations: the 50 nearest to the start.
    @Test func favoritesTourKeepsTheFiftyNearest() throws {
        let app = try Self.server.get()
        let catalog = try SharedCatalog.catalog()
        let client = app.inMemoryClient()
        let token = try client.registerUser(named: "weegee")
        let near = catalog.nearby(NearbyQuery(latitude: 40.7128, longitude: -74.0060, limit: 53))
        for match in near {
            let photoID = catalog.photos[catalog.locations[match.location].photos.lowerBound].photoID
            #expect(try client.requestJSON("PUT", "/favorites/\(photoID)", token: token).status == 201)
        }
        let response = try client.requestJSON("GET", "/tours/favorites?lat=40.7128&lon=-74.0060", token: token)
        #expect(response.status == 200)
        let ids = try Self.stops(response).map { $0["locationID"] as? String }
        #expect(Set(ids) == Set(near.prefix(50).map { catalog.locations[$0.location].locationID }))
        try Self.expectTourBody(try response.object(), latitude: 40.7128, longitude: -74.0060)
    }
}
