import API
import SQLite
import Dispatch
import Foundation
import Synchronization
import Testing
import TestSupport

/// Every status of every walk endpoint over a real socket, isolation between two
/// users, and paging to the end.
@Suite struct WalkRoutesTests {
    /// Union Square, where photos are plenty.
    static let unionSquare = (40.7359, -73.9911)

    @Test func startingAWalk() throws {
        let app = try TestApplication()
        let client = try WalkClient(port: app.port, username: "starter")
        let started = try client.send("POST", "/walks")
        #expect(started.status == 201)
        let walkID = try #require(started.json["walkID"] as? String)
        #expect(started.response.header("Location") == "/walks/\(walkID)")
        #expect(walkID.utf8.count == 22 && walkID.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        #expect(started.json["pointCount"] as? Int == 0)
        #expect(started.json["distanceMeters"] as? Double == 0)
        #expect(started.json["photoCount"] as? Int == 0)
        #expect(started.json["startedAt"] as? String == started.json["updatedAt"] as? String)

        let empty = try client.send("POST", "/walks", json: "{}")
        #expect(empty.status == 201)
        #expect(empty.json["walkID"] as? String != walkID, "every walk has its own ID")

        let named = try client.send("POST", "/walks", json: #"{"name":"Broadway"}"#)
        #expect(named.status == 400)
        #expect(named.detail.contains("name"))
        for body in ["[]", "nope", "{", "null", #"{"latitude":40}"#] {
            let refused = try client.send("POST", "/walks", json: body)
            #expect(refused.status == 400, "body \(body)")
            #expect(refused.response.header("Content-Type") == "application/problem+json")
        }
        let anonymous = try client.send("POST", "/walks", authorized: false)
        #expect(anonymous.status == 401)
        #expect(anonymous.response.header("WWW-Authenticate") == #"Bearer realm="past-nyc""#)
        let listed = try client.send("GET", "/walks")
        #expect((listed.json["walks"] as? [Any])?.count == 2, "refused requests started nothing")
    }

    @Test func sendingPoints() throws {
        let app = try TestApplication()
        let client = try WalkClient(port: app.port, username: "pointer")
        let walkID = try client.startWalk()

        let first = try client.post(walkID, Self.unionSquare.0, Self.unionSquare.1)
        #expect(first.status == 201)
        #expect(first.json["accepted"] as? Bool == true)
        let entry = try #require(first.json["entry"] as? [String: Any])
        for key in ["photoID", "thumbnailURL", "photoURL", "imageURL", "width", "height", "title", "date", "locationID", "latitude",
            "longitude", "borough", "intersection", "addedAt", "point", "distanceMeters"]
        {
            #expect(entry.keys.contains(key), "an entry has \(key)")
        }
        #expect(entry["borough"] as? String == "Manhattan")
        let walk = try #require(first.json["walk"] as? [String: Any])
        #expect(walk["pointCount"] as? Int == 1 && walk["photoCount"] as? Int == 1)

        // 50 m further: rejected, nothing changes.
        let near = try client.post(walkID, Self.unionSquare.0 + 0.00045, Self.unionSquare.1)
        #expect(near.status == 200)
        #expect(near.json["accepted"] as? Bool == false)
        #expect(near.json["entry"] is NSNull)
        #expect(NSDictionary(dictionary: near.json["walk"] as? [String: Any] ?? [:]) == NSDictionary(dictionary: walk))

        let bad: [(String, String)] = [
            (#"{"latitude":91,"longitude":-73.99}"#, "latitude"),
            (#"{"latitude":40.7,"longitude":-181}"#, "longitude"),
            (#"{"latitude":"40.7","longitude":-73.99}"#, "latitude"),
            (#"{"latitude":true,"longitude":-73.99}"#, "latitude"),
            (#"{"latitude":40.7,"longitude":null}"#, "longitude"),
            (#"{"latitude":40.7}"#, "longitude"),
            (#"{"longitude":-73.99}"#, "latitude"),
            (#"{"latitude":1e999,"longitude":-73.99}"#, "latitude"),
            (#"{"latitude":40.7,"longitude":-73.99,"altitude":12}"#, "altitude"),
            ("[40.7,-73.99]", "latitude"),
            ("latitude=40.7", "latitude"),
        ]
        for (body, field) in bad {
            let reply = try client.send("POST", "/walks/\(walkID)/points", json: body)
            #expect(reply.status == 400, "body \(body)")
            #expect(reply.detail.contains(field), "body \(body): \(reply.detail)")
            #expect(reply.response.header("Content-Type") == "application/problem+json")
        }
        let untyped = try client.connection.request(
            "POST", "/walks/\(walkID)/points", headers: [("Authorization", "Bearer \(client.token)")],
            body: Array(#"{"latitude":40.7,"longitude":-73.99}"#.utf8))
        #expect(untyped.status == 415)
        #expect(try client.send("POST", "/walks/\(walkID)/points", json: "{}", authorized: false).status == 401)

        // Not a walk of this user, in every way: 404, and the walk is unchanged.
        let other = try WalkClient(port: app.port, username: "intruder")
        let point = #"{"latitude":40.75,"longitude":-73.98}"#
        #expect(try other.send("POST", "/walks/\(walkID)/points", json: point).status == 404)
        for wrongID in ["abc", "AAAAAAAAAAAAAAAAAAAAAA", String(walkID.dropLast()), walkID + "A", "%E2%98%83"] {
            let reply = try client.send("POST", "/walks/\(wrongID)/points", json: point)
            #expect(reply.status == 404, "walk ID \(wrongID)")
        }
        let after = try client.send("GET", "/walks/\(walkID)")
        #expect((after.json["walk"] as? [String: Any])?["pointCount"] as? Int == 1)
        #expect((after.json["entries"] as? [Any])?.count == 1)

        #expect(try client.send("DELETE", "/walks/\(walkID)").status == 204)
        #expect(try client.send("POST", "/walks/\(walkID)/points", json: point).status == 404, "a deleted walk")
    }

    /// The route is exactly the accepted points, in the order they were accepted, on a
    /// seeded random walk whose steps are sometimes under 100 m (rejected).
    @Test func theRouteIsTheAcceptedPointsInOrder() throws {
        let app = try TestApplication()
        let client = try WalkClient(port: app.port, username: "router")
        let walkID = try client.startWalk()
        #expect((try client.send("GET", "/walks/\(walkID)/route").json["points"] as? [Any])?.isEmpty == true)
        var random = SeededGenerator(seed: 29)
        var (latitude, longitude) = Self.unionSquare
        var accepted: [(Double, Double)] = []
        for _ in 0..<40 {
            latitude += Double.random(in: -0.0015...0.0015, using: &random)
            longitude += Double.random(in: -0.0015...0.0015, using: &random)
            let reply = try client.post(walkID, latitude, longitude)
            if reply.json["accepted"] as? Bool == true { accepted.append((latitude, longitude)) }
        }
        #expect(accepted.count > 5 && accepted.count < 40, "some steps are accepted, some are not")
        let route = try client.send("GET", "/walks/\(walkID)/route")
        #expect(route.status == 200)
        #expect(route.response.header("Cache-Control") == "no-store")
        #expect(route.json["walkID"] as? String == walkID)
        let points = try #require(route.json["points"] as? [[String: Any]])
        #expect(points.count == accepted.count)
        for (point, expected) in zip(points, accepted) {
            // JSONSerialization may read a decimal a unit in the last place off.
            #expect(abs((point["latitude"] as? Double ?? 0) - expected.0) < 1e-12)
            #expect(abs((point["longitude"] as? Double ?? 0) - expected.1) < 1e-12)
            #expect((point["recordedAt"] as? String)?.hasSuffix("Z") == true)
        }
        let other = try WalkClient(port: app.port, username: "snoop")
        #expect(try other.send("GET", "/walks/\(walkID)/route").status == 404, "another user's walk")
        #expect(try client.send("GET", "/walks/AAAAAAAAAAAAAAAAAAAAAA/route").status == 404)
        #expect(try client.send("GET", "/walks/\(walkID)/route", authorized: false).status == 401)
    }

    /// A full walk: the next acceptable point is a 409 and changes nothing. (The
    /// server's cap is lowered to 40 here; the default configuration's test checks
    /// 5,000, and the store's tests that a nearer point is still just rejected.)
    /// Four connections feed the walk points on a grid off shore (no photos, every
    /// point 120 m from any other, so the order they arrive in does not matter).
    @Test func aFullWalkRefusesMorePoints() throws {
        let app = try TestApplication(maximumWalkPoints: 40)
        let client = try WalkClient(port: app.port, username: "marathon")
        let walkID = try client.startWalk()
        let failures = Mutex<[String]>([])
        let token = client.token
        let port = app.port
        DispatchQueue.concurrentPerform(iterations: 4) { lane in
            do {
                let connection = try WalkClient(port: port, token: token)
                for row in 0..<10 {
                    let reply = try connection.post(walkID, 39.5 + Double(row) * 0.0011, -71.0 + Double(lane) * 0.0016)
                    if reply.status != 201 { failures.withLock { $0.append("lane \(lane) row \(row): \(reply.status)") } }
                }
            } catch {
                failures.withLock { $0.append("lane \(lane): \(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        let before = try client.send("GET", "/walks/\(walkID)").json["walk"] as? [String: Any]
        let full = try client.post(walkID, 39.0, -71.0)
        #expect(full.status == 409)
        #expect(full.detail.contains("40 accepted points"))
        #expect(full.response.header("Content-Type") == "application/problem+json")
        let walk = try client.send("GET", "/walks/\(walkID)").json["walk"] as? [String: Any]
        #expect(walk?["pointCount"] as? Int == 40)
        #expect(NSDictionary(dictionary: walk ?? [:]) == NSDictionary(dictionary: before ?? [:]))
    }

    @Test func theDefaultCapIsFiveThousandPoints() {
        #expect(ApplicationConfiguration().maximumWalkPoints == 5_000)
    }

    @Test func showingAWalkPagesItsEntriesToTheEnd() throws {
        let app = try TestApplication()
        let client = try WalkClient(port: app.port, username: "pager")
        let walkID = try client.startWalk()
        var added: [String] = []
        for step in 0..<9 {
            let reply = try client.post(walkID, Self.unionSquare.0 + Double(step) * 0.0012, Self.unionSquare.1)
            try #require(reply.status == 201)
            if let entry = reply.json["entry"] as? [String: Any] { added.append(entry["photoID"] as! String) }
        }
        try #require(added.count >= 6)

        let listed = try client.pageThrough("/walks/\(walkID)", limit: 4, list: "entries", id: "photoID") {
            // Added between pages: not in the later pages, which continue after the first.
            let extra = try client.post(walkID, Self.unionSquare.0 + 0.02, Self.unionSquare.1)
            #expect(extra.status == 201)
        }
        #expect(listed == added.reversed())

        for query in ["limit=0", "limit=201", "limit=x", "limit=", "cursor=", "cursor=bm90LWEtY3Vyc29y", "limit=1&limit=2"] {
            let reply = try client.send("GET", "/walks/\(walkID)?\(query)")
            #expect(reply.status == 400, "query \(query)")
            #expect(reply.detail.contains(query.hasPrefix("limit") ? "limit" : "cursor"), "query \(query): \(reply.detail)")
        }
        #expect(try client.send("GET", "/walks/\(walkID)?limit=200").status == 200)
        #expect(try client.send("GET", "/walks/\(walkID)", authorized: false).status == 401)
        #expect(try client.send("GET", "/walks/AAAAAAAAAAAAAAAAAAAAAA").status == 404)
        #expect(try client.send("GET", "/walks/nope").status == 404)
        let other = try WalkClient(port: app.port, username: "peeker")
        #expect(try other.send("GET", "/walks/\(walkID)").status == 404)
    }

    @Test func listingWalksPagesToTheEndAndStaysPrivate() throws {
        let app = try TestApplication()
        let client = try WalkClient(port: app.port, username: "lister")
        let other = try WalkClient(port: app.port, username: "neighbour")
        let started = try (0..<5).map { _ in try client.startWalk() }
        let theirs = try other.startWalk()
        // New points reorder nothing.
        #expect(try client.post(started[0], Self.unionSquare.0, Self.unionSquare.1).status == 201)

        for limit in [1, 2, 5, 100] {
            let listed = try client.pageThrough("/walks", limit: limit, list: "walks", id: "walkID")
            #expect(listed == started.reversed(), "limit \(limit)")
        }
        let theirList = try other.send("GET", "/walks").json["walks"] as? [[String: Any]]
        #expect(theirList?.map { $0["walkID"] as? String } == [theirs])
        for query in ["limit=0", "limit=101", "limit=1.5", "cursor=zzz"] {
            #expect(try client.send("GET", "/walks?\(query)").status == 400, "query \(query)")
        }
        // A cursor of an entry page is not a cursor of the walk list.
        #expect(try client.send("GET", "/walks?cursor=ZTE6MQ").status == 400)
        #expect(try client.send("GET", "/walks", authorized: false).status == 401)
    }

    @Test func deletingWalksAndPhotos() throws {
        let app = try TestApplication()
        let client = try WalkClient(port: app.port, username: "deleter")
        let other = try WalkClient(port: app.port, username: "bystander")
        let walkID = try client.startWalk()
        let first = try client.post(walkID, Self.unionSquare.0, Self.unionSquare.1)
        let photoID = try #require((first.json["entry"] as? [String: Any])?["photoID"] as? String)

        #expect(try other.send("DELETE", "/walks/\(walkID)/photos/\(photoID)").status == 404)
        #expect(try client.send("DELETE", "/walks/\(walkID)/photos/\(photoID)", authorized: false).status == 401)
        #expect(try client.send("DELETE", "/walks/\(walkID)/photos/not-in-it").status == 404)
        #expect(try client.send("DELETE", "/walks/\(walkID)/photos/\(photoID)").status == 204)
        #expect(try client.send("DELETE", "/walks/\(walkID)/photos/\(photoID)").status == 404, "a second DELETE")
        let shown = try client.send("GET", "/walks/\(walkID)")
        #expect((shown.json["walk"] as? [String: Any])?["photoCount"] as? Int == 0)
        #expect((shown.json["entries"] as? [Any])?.isEmpty == true)

        // Back on the same spot (after a detour): the removed photo never comes back.
        #expect(try client.post(walkID, Self.unionSquare.0 + 0.01, Self.unionSquare.1).status == 201)
        let again = try client.post(walkID, Self.unionSquare.0, Self.unionSquare.1)
        #expect(again.status == 201)
        #expect((again.json["entry"] as? [String: Any])?["photoID"] as? String != photoID)

        #expect(try other.send("DELETE", "/walks/\(walkID)").status == 404)
        #expect(try client.send("DELETE", "/walks/\(walkID)", authorized: false).status == 401)
        #expect(try client.send("DELETE", "/walks/\(walkID)").status == 204)
        #expect(try client.send("DELETE", "/walks/\(walkID)").status == 404)
        #expect(try client.send("GET", "/walks/\(walkID)").status == 404)
        #expect(try client.send("DELETE", "/walks/\(walkID)/photos/\(photoID)").status == 404)
        #expect(try client.send("DELETE", "/walks/short").status == 404)
        let listed = try client.send("GET", "/walks").json["walks"] as? [Any]
        #expect(listed?.isEmpty == true)
    }
}

/// The reset (`DELETE /users/me/data`) erases the caller's walks with their points,
/// entries and removed photos, and nobody else's.
@Suite struct WalkResetTests {
    @Test(.enabled(if: TestDatabase.usesSQLite, "reads accounts.sqlite itself: SQLite store only")) func resetEmptiesTheWalks() throws {
        let app = try TestApplication()
        let user = try WalkClient(port: app.port, username: "resetter")
        let other = try WalkClient(port: app.port, username: "keeper")
        var walks: [String] = []
        for client in [user, other] {
            let walkID = try client.startWalk()
            walks.append(walkID)
            let first = try client.post(walkID, WalkRoutesTests.unionSquare.0, WalkRoutesTests.unionSquare.1)
            let photoID = try #require((first.json["entry"] as? [String: Any])?["photoID"] as? String)
            #expect(try client.post(walkID, WalkRoutesTests.unionSquare.0 + 0.002, WalkRoutesTests.unionSquare.1).status == 201)
            #expect(try client.send("DELETE", "/walks/\(walkID)/photos/\(photoID)").status == 204)
        }
        #expect(try user.send("DELETE", "/users/me/data").status == 204)

        #expect((try user.send("GET", "/walks").json["walks"] as? [Any])?.isEmpty == true)
        #expect(try user.send("GET", "/walks/\(walks[0])").status == 404)
        #expect(try user.post(walks[0], 40.75, -73.98).status == 404)
        let kept = try other.send("GET", "/walks/\(walks[1])")
        #expect((kept.json["walk"] as? [String: Any])?["pointCount"] as? Int == 2)

        let database = try SQLiteConnection(path: app.dataDirectory.file("accounts.sqlite"), mode: .readOnly)
        let rows = try ["walks", "walk_points", "walk_entries", "walk_removed_photos"].map { table in
            try database.queryFirst("SELECT count(*) FROM \(table)") { $0.int(0) } ?? -1
        }
        #expect(rows == [1, 2, 1, 1], "only the other user's walk, its two points, one entry and one removed photo")
        #expect(try user.startWalk() != walks[0], "the account still works")
    }
}
