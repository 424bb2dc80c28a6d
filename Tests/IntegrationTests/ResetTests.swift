import Foundation
import SQLite
import Testing
import TestSupport

/// `DELETE /users/me/data` (reset) and the wider `DELETE /users/me` over a real socket.
@Suite struct ResetTests {
    @Test func resetErasesTheUserDataAndKeepsTheAccountProfileAndToken() throws {
        let app = try TestApplication()
        let user = try SignedInClient(port: app.port, username: "Ansel")
        let other = try SignedInClient(port: app.port, username: "Dorothea")
        let photos = try user.catalogPhotoIDs(3)
        let secondToken = try #require(
            try user.object("POST", "/users/login", body: #"{"username":"ansel","password":"\#(SignedInClient.password)"}"#)[
                "token"] as? String)
        _ = try user.object("PATCH", "/users/me", body: #"{"displayName":"Ansel","home":{"latitude":40.7,"longitude":-74}}"#)
        for client in [user, other] {
            for photo in photos {
                #expect(try client.send("PUT", "/favorites/\(photo)").status == 201)
                #expect(try client.send("PUT", "/recents/\(photo)").status == 200)
            }
        }

        let anonymous = try user.send("DELETE", "/users/me/data", authorized: false)
        #expect(anonymous.status == 401)
        #expect(anonymous.header("WWW-Authenticate") == #"Bearer realm="past-nyc""#)
        #expect(try user.send("DELETE", "/users/me/data", authorization: "Bearer nope").status == 401)
        #expect(try user.favoriteIDs().count == 3, "a refused reset erases nothing")

        let reset = try user.send("DELETE", "/users/me/data")
        #expect(reset.status == 204)
        #expect(reset.body.isEmpty)

        let me = try user.object("GET", "/users/me")
        #expect(me["username"] as? String == "Ansel")
        #expect(me["favoriteCount"] as? Int == 0)
        #expect(me["displayName"] as? String == "Ansel", "the profile stays")
        #expect(me["home"] is [String: Any])
        #expect(try user.favoriteIDs() == [])
        #expect(try user.recentIDs() == [])
        let otherSession = try user.send("GET", "/users/me", authorization: "Bearer \(secondToken)")
        #expect(otherSession.status == 200, "every token keeps working")
        #expect(try user.send("DELETE", "/users/me/data").status == 204, "a reset of nothing")

        #expect(try other.favoriteIDs() == photos.reversed(), "another user's data stays")
        #expect(try other.recentIDs() == photos.reversed())
        #expect(try user.send("PUT", "/favorites/\(photos[0])").status == 201, "the account is usable")
    }

    @Test(.enabled(if: TestDatabase.usesSQLite, "reads accounts.sqlite itself: SQLite store only")) func deletingTheAccountRemovesItsRecents() throws {
        let app = try TestApplication()
        let user = try SignedInClient(port: app.port, username: "Vivian")
        let other = try SignedInClient(port: app.port, username: "Helen")
        let photos = try user.catalogPhotoIDs(3)
        for photo in photos {
            #expect(try user.send("PUT", "/recents/\(photo)").status == 200)
            #expect(try user.send("PUT", "/favorites/\(photo)").status == 201)
        }
        #expect(try other.send("PUT", "/recents/\(photos[0])").status == 200)

        let deleted = try user.send("DELETE", "/users/me", body: #"{"password":"\#(SignedInClient.password)"}"#)
        #expect(deleted.status == 204)
        #expect(try user.send("GET", "/recents").status == 401)

        let database = try SQLiteConnection(path: app.dataDirectory.file("accounts.sqlite"), mode: .readOnly)
        let owners = try database.query(
            """
            SELECT 'recents', user_id FROM recents UNION ALL SELECT 'favorites', user_id FROM favorites
            UNION ALL SELECT 'tokens', user_id FROM tokens
            """
        ) { "\($0.text(0)):\($0.int64(1))" }
        let helen = try #require(
            try database.queryFirst("SELECT id FROM users WHERE username = 'Helen'") { $0.int64(0) })
        #expect(try database.queryFirst("SELECT count(*) FROM users") { $0.int(0) } == 1)
        #expect(Set(owners) == ["recents:\(helen)", "tokens:\(helen)"], "nothing of the deleted user is left")
        #expect(try other.recentIDs() == [photos[0]])
    }
}
