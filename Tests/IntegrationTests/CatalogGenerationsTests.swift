@testable import API
import Catalog
import Foundation
import HTTPServer
import Testing
import TestSupport
import UserData

/// Accepted corrections reach every answer of the catalog: written into the user data
/// (`catalog_corrections`) by another connection, as a moderator's decision is, they make
/// a new generation that every route serves (the catalog's and the user data's alike),
/// with new ETags, the snapshot's `Catalog-Generation`, and `GET /catalog/changes`. On
/// PostgreSQL (`PAST_NYC_TEST_DATABASE_URL`) every instance on the database follows.
@Suite struct CatalogGenerationsTests {
    /// How long a test waits for a generation: the contract's 10 s, with room for a
    /// machine busy with other tests.
    static let waitSeconds = 30

    /// The photo the tests move: alone at its location on Staten Island.
    static let photoID = "729683f-a"
    static let shippedLocation = "40.500426,-74.236510"

    /// A store at the application's location, as another instance or process opens it.
    static func store(of app: TestApplication) throws -> any UserDataStore {
        try UserDataLocation(dataDirectory: app.dataDirectory.path, databaseURL: app.database?.url, poolSize: 2).openStore()
    }

    @Test func aCorrectionReachesEveryAnswer() throws {
        let app = try TestApplication(listening: false)
        let client = app.inMemoryClient()
        let token = try client.registerUser(named: "corrected")
        let bearer = [("Authorization", "Bearer \(token)")]
        #expect(try client.request("PUT", "/favorites/\(Self.photoID)", headers: bearer).status == 201)
        let before = try client.request("GET", "/photos/\(Self.photoID)")
        let shippedGeneration = try #require(try client.request("GET", "/catalog/snapshot").header("Catalog-Generation"))
        #expect(shippedGeneration.hasPrefix("0-"))
        #expect(try client.request("GET", "/locations/\(Self.shippedLocation)").status == 200)

        let accepted = try CorrectionRows.accept(
            [(Self.photoID, .location(latitude: 40.7484, longitude: -73.9857)), (Self.photoID, .date(year: 1931)),
             (Self.photoID, .rotation(degrees: 90))],
            into: Self.store(of: app))
        let generation = try #require(accepted.last?.sequence)
        #expect(CorrectionRows.wait(seconds: Self.waitSeconds) { app.application.catalog.number == generation })

        let photo = try client.request("GET", "/photos/\(Self.photoID)")
        let fields = try photo.object()
        #expect(fields["locationID"] as? String == "40.748400,-73.985700")
        #expect(fields["borough"] as? String == "Manhattan")
        #expect(fields["intersection"] is NSNull, "a moved photo has no label of its own")
        #expect(fields["date"] as? String == "1931")
        #expect(fields["years"] as? [String] == ["1931"])
        #expect((fields["width"] as? Int, fields["height"] as? Int) == (400, 600), "sides swapped for 90 degrees")
        #expect(photo.header("ETag") != before.header("ETag"))
        let revalidated = try client.request("GET", "/photos/\(Self.photoID)", headers: [("If-None-Match", before.header("ETag")!)])
        #expect(revalidated.status == 200, "the old tag no longer matches")
        #expect(app.application.catalog.acceptedRotation(photoID: Self.photoID) == 90)
        #expect(app.application.catalog.acceptedRotation(photoID: "no-such-photo") == nil)

        #expect(try client.request("GET", "/locations/\(Self.shippedLocation)").status == 404, "emptied, so gone")
        let nearby = try client.get("/nearby", query: [("lat", "40.7484"), ("lon", "-73.9857"), ("limit", "1")]).object()
        let first = try #require((nearby["locations"] as? [[String: Any]])?.first)
        #expect(first["locationID"] as? String == "40.748400,-73.985700")
        #expect((first["photos"] as? [[String: Any]])?.map { $0["photoID"] as? String } == [Self.photoID])
        let search = try client.get("/search", query: [("q", "sprague surf"), ("limit", "100")]).object()
        let found = try #require((search["results"] as? [[String: Any]])?.first { $0["photoID"] as? String == Self.photoID })
        #expect(found["locationID"] as? String == "40.748400,-73.985700")

        // The user-data routes show it where it is now.
        let favorite = try client.request("GET", "/favorites/\(Self.photoID)", headers: bearer).object()
        #expect(favorite["locationID"] as? String == "40.748400,-73.985700")

        let snapshot = try client.request("GET", "/catalog/snapshot")
        #expect(snapshot.header("Catalog-Generation") == app.application.catalog.current.token)
        #expect(snapshot.header("Catalog-Generation")?.hasPrefix("\(generation)-") == true)
        let changes = try client.get("/catalog/changes", query: [("since", shippedGeneration)])
        #expect(changes.header("Cache-Control") == "no-cache")
        let listed = try #require(try changes.object()["changes"] as? [[String: Any]])
        #expect(listed.map { $0["locationID"] as? String } == ["40.500426,-74.236510", "40.748400,-73.985700"])
        #expect(listed.map { $0["deleted"] as? Bool } == [true, false])
        let line = try #require(listed[1]["location"] as? [String: Any])
        #expect((line["photos"] as? [[String: Any]])?.first?["date"] as? String == "1931")
    }

    /// A pin's list being paged when a new generation is served goes on: its cursor names
    /// the location by its ID, which outlives the location's place in the generation.
    @Test func aLocationsCursorOutlivesANewGeneration() throws {
        let app = try TestApplication(listening: false)
        let client = app.inMemoryClient()
        let locationID = "40.802963,-73.963849"
        let listed = "/locations/\(locationID)?limit=10"
        let indexBefore = app.application.catalog.current.catalog.locationIndex(locationID: locationID)
        let first = try client.request("GET", listed).object()
        let cursor = try #require(first["nextCursor"] as? String)
        let secondBefore = try client.request("GET", listed + "&cursor=\(cursor)").object()
        let accepted = try CorrectionRows.accept(
            [(Self.photoID, .location(latitude: 40.8501, longitude: -73.9301))], into: Self.store(of: app))
        let generation = try #require(accepted.last?.sequence)
        #expect(CorrectionRows.wait(seconds: Self.waitSeconds) { app.application.catalog.number == generation })
        #expect(
            app.application.catalog.current.catalog.locationIndex(locationID: locationID) != indexBefore,
            "the location has another place in the new generation (what the cursor must not depend on)")
        let second = try client.request("GET", listed + "&cursor=\(cursor)")
        #expect(second.status == 200, "\(second.bodyText)")
        let photoIDs = { (page: [String: Any]) in (page["photos"] as? [[String: Any]])?.compactMap { $0["photoID"] as? String } }
        #expect(photoIDs(try second.object()) == photoIDs(secondBefore), "the location's list did not change")
    }

    @Test func changesNameWhatIsWrongWithSince() throws {
        let app = try TestApplication(listening: false)
        let client = app.inMemoryClient()
        let current = try client.request("GET", "/catalog/changes")
        let body = try current.object()
        let token = try #require(body["generation"] as? String)
        #expect((body["changes"] as? [Any])?.isEmpty == true)
        #expect(current.header("Cache-Control") == "no-cache")
        let etag = try #require(current.header("ETag"))
        #expect(try client.request("GET", "/catalog/changes", headers: [("If-None-Match", etag)]).status == 304)
        #expect(try client.get("/catalog/changes", query: [("since", token)]).object()["changes"] as? [Any] != nil)

        let digest = token.drop { $0 != "-" }
        for since in ["", "latest", "1\(digest)", "0-00", "-1\(digest)"] {
            let refused = try client.get("/catalog/changes", query: [("since", since)])
            #expect(refused.status == 400, "\(since)")
            #expect(refused.bodyText.contains("since"), "\(since)")
            #expect(refused.header("Cache-Control") == "no-cache")
        }
        let otherHistory = try client.get("/catalog/changes", query: [("since", "0-0123456789abcdef")])
        #expect(otherHistory.status == 410)
        #expect(otherHistory.header("Content-Type") == "application/problem+json")
        #expect(try client.request("GET", "/catalog/changes?since=\(token)&since=\(token)").status == 400)
    }

    @Test func aRequestFinishesOnTheGenerationItStartedWith() throws {
        let app = try TestApplication(listening: false)
        let held = app.application.catalog.current
        let heldPhoto = held.catalog.photoIndex(photoID: Self.photoID)!
        let accepted = try CorrectionRows.accept([(Self.photoID, .date(year: 1901))], into: Self.store(of: app))
        #expect(CorrectionRows.wait(seconds: Self.waitSeconds) { app.application.catalog.number == accepted[0].sequence })
        #expect(held.catalog.photos[heldPhoto].date == "1936", "what a running request holds does not change under it")
        #expect(String(decoding: held.catalogRoutes.json.photoBody(heldPhoto), as: UTF8.self).contains(#""date":"1936""#))
        let now = app.application.catalog.current
        #expect(now !== held)
        #expect(now.catalog.photos[now.catalog.photoIndex(photoID: Self.photoID)!].date == "1901")

        // An instance still on the held generation, asked with the newer one's token (a
        // phone that met another instance first): not "never issued", but "ask again".
        let request = HTTPRequest(
            method: .get, target: "/catalog/changes", path: "/catalog/changes", queryItems: [(name: "since", value: now.token)])
        #expect(try SnapshotRoutes.changes(request, of: held, worker: nil) == nil, "decided on a worker")
        do {
            _ = try SnapshotRoutes.changes(request, of: held, worker: app.application.catalog)
            Issue.record("a generation this instance has not built was answered")
        } catch let error as HTTPError {
            #expect(error.status.code == 503 && error.headers["Retry-After"] == "1")
        }
        let forged = HTTPRequest(
            method: .get, target: "/catalog/changes", path: "/catalog/changes",
            queryItems: [(name: "since", value: "\(accepted[0].sequence + 1)" + now.token.drop { $0 != "-" })])
        #expect(throws: HTTPError.self) { try SnapshotRoutes.changes(forged, of: now, worker: app.application.catalog) }
    }

    /// Two instances on one PostgreSQL database: a correction written through neither
    /// reaches both (the table's trigger notifies every instance's listener).
    @Test(.enabled(if: TestDatabase.serverURL != nil, "PostgreSQL only")) func everyInstanceFollows() throws {
        let database = try #require(try TestDatabase.make())
        let instances = try (0..<2).map { _ in try TestApplication(databaseURL: database.url, listening: false) }
        let store = try UserDataLocation(dataDirectory: "", databaseURL: database.url, poolSize: 1).openStore()
        let accepted = try CorrectionRows.accept([(Self.photoID, .location(latitude: 40.7061, longitude: -74.0087))], into: store)
        for instance in instances {
            #expect(CorrectionRows.wait(seconds: Self.waitSeconds) { instance.application.catalog.number == accepted[0].sequence })
        }
        #expect(instances[0].application.catalog.current.token == instances[1].application.catalog.current.token)
        let bodies = try instances.map { try $0.inMemoryClient().request("GET", "/catalog/snapshot").body }
        #expect(bodies[0] == bodies[1], "the same corrections make the same bytes on every instance")
    }
}
