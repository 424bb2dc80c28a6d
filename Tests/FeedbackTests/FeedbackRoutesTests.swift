import Accounts
import Catalog
import Foundation
import Testing
import TestSupport
import UserData

/// The feedback and moderation endpoints through the application's request pipeline,
/// on the store the tests run on: statuses, headers, bodies and the 4xx that name what
/// is wrong.
@Suite struct FeedbackRoutesTests {
    let app: TestApplication
    let clock = TestClock()
    let client: InMemoryHTTPClient
    let photoID: String
    let place: CatalogLocation

    init() throws {
        app = try TestApplication(listening: false, clock: clock)
        client = app.inMemoryClient()
        let catalog = try SharedCatalog.catalog()
        photoID = catalog.photos[5].photoID
        place = catalog.locations[catalog.photos[5].locationIndex]
    }

    /// Names `username` a moderator as the operator does: through a store of its own on
    /// the application's user data.
    func makeModerator(_ username: String) throws {
        let location: UserDataLocation =
            if let database = app.database { .postgres(url: database.url, poolSize: 1) }
            else { .sqlite(dataDirectory: app.dataDirectory.path) }
        try UserRoles.assign(.moderator, toUsername: username, in: location.openStore())
    }

    func send(_ json: String, token: String, photo: String? = nil) throws -> RawHTTPClient.Response {
        try client.requestJSON("POST", "/photos/\(photo ?? photoID)/feedback", json: json, token: token)
    }

    /// How many feedbacks `GET /feedback/mine` lists for the token's user.
    func mineCount(_ token: String) throws -> Int {
        (try client.requestJSON("GET", "/feedback/mine", token: token).object()["feedback"] as? [Any])?.count ?? -1
    }

    @Test func sendingReadingAndListingFeedback() throws {
        let token = try client.registerUser(named: "reporter")
        let created = try send(#"{"kind":"date","year":1931}"#, token: token)
        #expect(created.status == 201)
        let body = try created.object()
        let id = try #require(body["feedbackID"] as? String)
        #expect(created.header("Location") == "/feedback/\(id)")
        #expect(created.header("Cache-Control") == "no-store")
        #expect(body["photoID"] as? String == photoID && body["kind"] as? String == "date" && body["year"] as? Int == 1931)
        #expect(body["status"] as? String == "open" && body["decidedAt"] is NSNull)
        #expect(Set(body.keys) == ["feedbackID", "photoID", "kind", "year", "status", "createdAt", "decidedAt"])

        let replaced = try send(#"{"year":1932,"kind":"date"}"#, token: token)
        #expect(replaced.status == 200 && replaced.header("Location") == nil)
        #expect(try replaced.object()["feedbackID"] as? String == id)
        #expect(try replaced.object()["createdAt"] as? String == body["createdAt"] as? String)
        #expect(try replaced.object()["year"] as? Int == 1932)

        let shown = try client.requestJSON("GET", "/feedback/\(id)", token: token)
        #expect(shown.status == 200 && shown.header("Cache-Control") == "no-store")
        #expect(try shown.object()["year"] as? Int == 1932)
        let stranger = try client.registerUser(named: "stranger")
        #expect(try client.requestJSON("GET", "/feedback/\(id)", token: stranger).status == 404)
        #expect(try client.requestJSON("GET", "/feedback/\(id)").status == 401)

        let location = try send(
            #"{"kind":"location","latitude":\#(place.latitude + 0.01),"longitude":\#(place.longitude)}"#, token: token)
        #expect(location.status == 201)
        #expect(try location.object()["latitude"] as? Double == place.latitude + 0.01)
        let mine = try client.requestJSON("GET", "/feedback/mine?limit=1", token: token)
        #expect(mine.status == 200)
        let first = try mine.object()
        #expect((first["feedback"] as? [[String: Any]])?.map { $0["kind"] as? String } == ["location"])
        let cursor = try #require(first["nextCursor"] as? String)
        let second = try client.requestJSON("GET", "/feedback/mine?limit=1&cursor=\(cursor)", token: token).object()
        #expect((second["feedback"] as? [[String: Any]])?.map { $0["feedbackID"] as? String } == [id])
        #expect(try mineCount(stranger) == 0)
        #expect(try client.requestJSON("GET", "/feedback/mine?limit=0", token: token).status == 400)
        #expect(try client.requestJSON("GET", "/feedback/mine?cursor=nope", token: token).status == 400)
        let unknown = try client.requestJSON("POST", "/photos/no-such-photo/feedback", json: #"{"kind":"date","year":1931}"#, token: token)
        #expect(unknown.status == 404 && unknown.problemDetail.contains("no-such-photo"))
        #expect(try send(#"{"kind":"date","year":1931}"#, token: "not-a-token").status == 401)
    }

    @Test(arguments: [
        (#"{"kind":"date","year":1931,"degrees":90}"#, "degrees"),
        (#"{"kind":"rotation","degrees":90,"year":1931}"#, "year"),
        (#"{"kind":"other","text":"hi","latitude":40}"#, "latitude"),
        (#"{"kind":"date","year":1931,"color":"sepia"}"#, "color"),
        (#"{"year":1931}"#, "kind"),
        (#"{"kind":"colour","year":1931}"#, "kind"),
        (#"{"kind":7}"#, "kind"),
        (#"{"kind":"date"}"#, "year"),
        (#"{"kind":"date","year":1931.5}"#, "year"),
        (#"{"kind":"date","year":"1931"}"#, "year"),
        (#"{"kind":"date","year":1799}"#, "year"),
        (#"{"kind":"date","year":1e300}"#, "year"),
        (#"{"kind":"rotation","degrees":45}"#, "degrees"),
        (#"{"kind":"location","latitude":91,"longitude":-73.9}"#, "latitude"),
        (#"{"kind":"location","latitude":40.7}"#, "longitude"),
        (#"{"kind":"location","latitude":45,"longitude":-73.99}"#, "latitude"),
        (#"{"kind":"other","text":""}"#, "text"),
        (#"{"kind":"other","text":"bell\u0007"}"#, "text"),
        (#"{"kind":"other","text":null}"#, "text"),
    ])
    func aBadBodyIsA400NamingTheField(json: String, field: String) throws {
        let token = try client.registerUser(named: "careless")
        let response = try send(json, token: token)
        #expect(response.status == 400, "\(json): \(response.bodyText)")
        #expect(response.header("Content-Type") == "application/problem+json")
        #expect(response.problemDetail.split { !$0.isLetter }.contains { $0 == field }, "\(json): \(response.problemDetail)")
        #expect(try mineCount(token) == 0, "nothing was stored")
    }

    @Test func theModerationEndpointsAreAModeratorsAndOthersGet403() throws {
        let author = try client.registerUser(named: "author")
        let user = try client.registerUser(named: "hopeful")
        let sent = try send(#"{"kind":"rotation","degrees":180}"#, token: author)
        let id = try #require(try sent.object()["feedbackID"] as? String)
        for token in [author, user] {
            #expect(try client.requestJSON("GET", "/feedback", token: token).status == 403)
            // The role is checked before the parameters and the body.
            #expect(try client.requestJSON("GET", "/feedback?status=bogus", token: token).status == 403)
            #expect(try client.requestJSON("POST", "/feedback/\(id)/decision", json: #"{"accept":1}"#, token: token).status == 403)
        }
        #expect(try client.requestJSON("GET", "/feedback").status == 401)
        let me = try client.requestJSON("GET", "/users/me", token: user).object()
        #expect(me["role"] as? String == "user")

        try makeModerator("HOPEFUL")
        #expect(try client.requestJSON("GET", "/users/me", token: user).object()["role"] as? String == "moderator")
        let queue = try client.requestJSON("GET", "/feedback?kind=rotation", token: user)
        #expect(queue.status == 200 && queue.header("Cache-Control") == "no-store")
        #expect((try queue.object()["feedback"] as? [[String: Any]])?.map { $0["feedbackID"] as? String } == [id])
        #expect(try client.requestJSON("GET", "/feedback?status=accepted", token: user).object()["feedback"] as? [Any] != nil)
        #expect(try client.requestJSON("GET", "/feedback/\(id)", token: user).status == 200)
        for (query, name) in [("status=bogus", "status"), ("kind=colour", "kind"), ("limit=201", "limit"), ("cursor=x", "cursor")] {
            let refused = try client.requestJSON("GET", "/feedback?\(query)", token: user)
            #expect(refused.status == 400 && refused.problemDetail.contains(name), "\(query): \(refused.problemDetail)")
        }
        for (json, name) in [(#"{"accept":1}"#, "accept"), (#"{}"#, "accept"), (#"{"accept":true,"why":"x"}"#, "why")] {
            let refused = try client.requestJSON("POST", "/feedback/\(id)/decision", json: json, token: user)
            #expect(refused.status == 400 && refused.problemDetail.contains(name), "\(json): \(refused.problemDetail)")
        }
        #expect(try client.requestJSON("POST", "/feedback/987654/decision", json: #"{"accept":true}"#, token: user).status == 404)
        let decided = try client.requestJSON("POST", "/feedback/\(id)/decision", json: #"{"accept":true}"#, token: user)
        #expect(decided.status == 200 && decided.header("Cache-Control") == "no-store")
        #expect(try decided.object()["status"] as? String == "accepted")
        #expect(try decided.object()["decidedAt"] as? String != nil)
        let again = try client.requestJSON("POST", "/feedback/\(id)/decision", json: #"{"accept":false}"#, token: user)
        #expect(again.status == 409 && again.problemDetail.contains("accepted"))
        #expect(try client.requestJSON("GET", "/feedback/\(id)", token: author).object()["status"] as? String == "accepted")
    }

    @Test func theHundredAndFirstFeedbackOfADayIsA429WithRetryAfter() throws {
        let token = try client.registerUser(named: "busy")
        let catalog = try SharedCatalog.catalog()
        for index in 0..<100 {
            let response = try send(#"{"kind":"rotation","degrees":90}"#, token: token, photo: catalog.photos[index].photoID)
            try #require(response.status == 201, "\(index): \(response.bodyText)")
        }
        clock.advance(by: 600)
        let refused = try send(#"{"kind":"rotation","degrees":90}"#, token: token, photo: catalog.photos[100].photoID)
        #expect(refused.status == 429)
        #expect(refused.header("Retry-After") == "85800")
        #expect(refused.problemDetail.contains("100"))
        // Replacing one of the hundred is still welcome.
        #expect(try send(#"{"kind":"rotation","degrees":180}"#, token: token, photo: catalog.photos[0].photoID).status == 200)
    }
}
