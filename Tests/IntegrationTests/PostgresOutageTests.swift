import Foundation
import Testing
import TestSupport

/// The PostgreSQL store going away and coming back under a running server: requests
/// that need it answer 503 with `Retry-After` quickly (never a 500, never a hang), the
/// catalog keeps serving, and the server reconnects by itself once PostgreSQL is back,
/// with every write it acknowledged still there. Runs in the PostgreSQL test run,
/// on a server of its own (it stops that server).
@Suite(.enabled(if: TestDatabase.serverURL != nil, "needs PostgreSQL: set PAST_NYC_TEST_DATABASE_URL"))
struct PostgresOutageTests {
    @Test func anOutageAnswers503AndTheServerRecoversByItself() throws {
        let postgres = try ThrowAwayPostgres()
        let app = try TestApplication(databaseURL: postgres.url)
        let user = try SignedInClient(port: app.port, username: "outage")
        let photoIDs = try user.catalogPhotoIDs(2)
        #expect(try user.send("PUT", "/favorites/\(photoIDs[0])").status == 201)

        try postgres.down()
        for (method, target) in [
            ("GET", "/favorites"), ("PUT", "/favorites/\(photoIDs[1])"), ("GET", "/users/me"), ("POST", "/walks"),
        ] {
            let started = ContinuousClock.now
            let response = try user.send(method, target)
            let elapsed = ContinuousClock.now - started
            #expect(response.status == 503, "\(method) \(target): \(response.bodyText)")
            #expect(response.header("Content-Type") == "application/problem+json", "\(method) \(target)")
            #expect(response.header("Retry-After").flatMap(Int.init) ?? 0 >= 1, "\(method) \(target)")
            #expect(elapsed < .seconds(2), "\(method) \(target) took \(elapsed)")
        }
        let login = try user.client.requestJSON(
            "POST", "/users/login", json: #"{"username":"outage","password":"\#(SignedInClient.password)"}"#)
        #expect(login.status == 503, "\(login.bodyText)")
        let catalog = try user.send("GET", "/nearby?lat=40.7359&lon=-73.9911&limit=1", authorized: false)
        #expect(catalog.status == 200)

        try postgres.up()
        var favorites: [String] = []
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let response = try user.send("GET", "/favorites")
            if response.status == 200 {
                favorites = try user.favoriteIDs()
                break
            }
            #expect(response.status == 503, "\(response.bodyText)")
            Thread.sleep(forTimeInterval: 0.2)
        }
        #expect(favorites == [photoIDs[0]], "the acknowledged favorite survives, the refused one is absent")
        #expect(try user.send("PUT", "/favorites/\(photoIDs[1])").status == 201)
    }
}
