import Foundation
import SQLite
import Testing
import TestSupport

/// The recently viewed list over a real socket: `PUT /recents/{photoID}`,
/// `GET /recents`, `DELETE /recents`.
@Suite struct RecentsTests {
    @Test func viewingAgainMovesThePhotoToTheTopWithoutADuplicate() throws {
        let app = try TestApplication()
        let user = try SignedInClient(port: app.port, username: "Riis")
        let photos = try user.catalogPhotoIDs(4)
        #expect(try user.recentIDs() == [])

        for photo in photos.prefix(3) {
            let viewed = try user.send("PUT", "/recents/\(photo)")
            #expect(viewed.status == 200)
            let body = try viewed.object()
            #expect(body["photoID"] as? String == photo)
            #expect(body["thumbnailURL"] as? String == "https://oldnyc-assets.nypl.org/thumb/\(photo).jpg")
            #expect(body["width"] is Int)
            let viewedAt = try #require(body["viewedAt"] as? String)
            #expect(viewedAt.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil, "\(viewedAt)")
        }
        // All within a second or so: equal `viewedAt` lists the later PUT first.
        #expect(try user.recentIDs() == [photos[2], photos[1], photos[0]])

        #expect(try user.send("PUT", "/recents/\(photos[0])").status == 200)
        #expect(try user.recentIDs() == [photos[0], photos[2], photos[1]])
        #expect(try user.send("PUT", "/recents/\(photos[0])").status == 200)
        #expect(try user.send("PUT", "/recents/\(photos[3])").status == 200)
        #expect(try user.send("PUT", "/recents/\(photos[1])").status == 200)
        #expect(try user.recentIDs() == [photos[1], photos[3], photos[0], photos[2]])

        let listed = try #require(try user.object("GET", "/recents")["recents"] as? [[String: Any]])
        #expect(listed.first?["viewedAt"] is String)
        #expect(listed.first?["title"] != nil, "each recent is a whole PhotoSummary")
    }

    @Test(.enabled(if: TestDatabase.usesSQLite, "reads accounts.sqlite itself: SQLite store only")) func theHundredAndFirstViewDropsTheOldest() throws {
        let app = try TestApplication()
        let user = try SignedInClient(port: app.port, username: "Abbott")
        let other = try SignedInClient(port: app.port, username: "Hine")
        let photos = try user.catalogPhotoIDs(102)
        #expect(try other.send("PUT", "/recents/\(photos[0])").status == 200)

        for photo in photos.prefix(100) {
            #expect(try user.send("PUT", "/recents/\(photo)").status == 200)
        }
        #expect(try user.recentIDs(limit: 100) == photos.prefix(100).reversed())
        #expect(try user.send("PUT", "/recents/\(photos[100])").status == 200)
        #expect(try user.recentIDs(limit: 100) == photos[1...100].reversed(), "the oldest view is gone")
        // Viewing a kept photo again moves it and drops nothing.
        #expect(try user.send("PUT", "/recents/\(photos[50])").status == 200)
        let moved = try user.recentIDs(limit: 100)
        #expect(moved.count == 100)
        #expect(moved.first == photos[50])
        #expect(try user.send("PUT", "/recents/\(photos[101])").status == 200)
        #expect(try user.recentIDs(limit: 100).last == photos[2])

        // The rows themselves are trimmed: the database does not grow with the views.
        let database = try SQLiteConnection(path: app.dataDirectory.file("accounts.sqlite"), mode: .readOnly)
        let counts = try database.query(
            "SELECT u.username, count(*) FROM recents r JOIN users u ON u.id = r.user_id GROUP BY u.username ORDER BY 1"
        ) { "\($0.text(0))=\($0.int(1))" }
        #expect(counts == ["Abbott=100", "Hine=1"], "another user's list is untouched")
        #expect(try other.recentIDs() == [photos[0]])
    }

    @Test func limitsAndTheDefaultPage() throws {
        let app = try TestApplication()
        let user = try SignedInClient(port: app.port, username: "Fellig")
        let photos = try user.catalogPhotoIDs(60)
        for photo in photos {
            #expect(try user.send("PUT", "/recents/\(photo)").status == 200)
        }
        #expect(try user.recentIDs() == Array(photos.reversed().prefix(50)), "50 by default")
        #expect(try user.recentIDs(limit: 1) == [photos[59]])
        #expect(try user.recentIDs(limit: 100) == photos.reversed())

        for limit in ["0", "101", "-1", "ten", "", "1.5", "0x10", "%D9%A4"] {
            let response = try user.send("GET", "/recents?limit=\(limit)")
            #expect(response.status == 400, "limit=\(limit)")
            #expect(response.header("Content-Type") == "application/problem+json")
            let detail = try response.object()["detail"] as? String
            #expect(detail?.contains("'limit'") == true, "limit=\(limit)")
        }
    }

    @Test func unknownPhotosClearingAndTokens() throws {
        let app = try TestApplication()
        let user = try SignedInClient(port: app.port, username: "Stieglitz")
        let other = try SignedInClient(port: app.port, username: "Steichen")
        let photos = try user.catalogPhotoIDs(2)
        #expect(try user.send("PUT", "/recents/\(photos[0])").status == 200)
        #expect(try other.send("PUT", "/recents/\(photos[1])").status == 200)

        let unknown = try user.send("PUT", "/recents/no-such-photo")
        #expect(unknown.status == 404)
        #expect(unknown.header("Content-Type") == "application/problem+json")
        #expect(try user.recentIDs() == [photos[0]], "an unknown photo is not recorded")

        for (method, target) in [("GET", "/recents"), ("PUT", "/recents/\(photos[1])"), ("DELETE", "/recents")] {
            let anonymous = try user.send(method, target, authorized: false)
            #expect(anonymous.status == 401, "\(method) \(target)")
            #expect(anonymous.header("WWW-Authenticate") == #"Bearer realm="past-nyc""#)
            let forged = try user.send(method, target, authorization: "Bearer not-a-token")
            #expect(forged.status == 401, "\(method) \(target)")
        }
        #expect(try user.recentIDs() == [photos[0]])

        let cleared = try user.send("DELETE", "/recents")
        #expect(cleared.status == 204)
        #expect(cleared.body.isEmpty)
        #expect(try user.recentIDs() == [])
        #expect(try user.send("DELETE", "/recents").status == 204, "clearing an empty list")
        #expect(try other.recentIDs() == [photos[1]], "each user has their own list")
    }
}

