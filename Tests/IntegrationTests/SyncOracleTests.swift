import Foundation
import Testing
import TestSupport

/// `GET /sync` against the other endpoints: two devices of one user make seeded
/// random writes (favorites, recents, walks and their points and photos, profile,
/// reset), and a mirror built only from `/sync` answers (small `limit`s, so paging is
/// exercised) must equal, after every step, what the other endpoints return.
@Suite struct SyncOracleTests {
    /// A local copy built from `/sync` answers only.
    struct Mirror {
        var favorites: [String: [String: Any]] = [:]
        var recents: [String: [String: Any]] = [:]
        var walks: [String: [String: Any]] = [:]
        var entries: [String: [String: [String: Any]]] = [:]
        var user: [String: Any]?
        var token: String?

        /// Applies answers until `more` is false.
        mutating func catchUp(_ device: SignedInClient, limit: Int) throws {
            while true {
                var target = "/sync?limit=\(limit)"
                if let token { target += "&since=\(token)" }
                let answer = try device.object("GET", target)
                let changes = try #require(answer["changes"] as? [[String: Any]])
                #expect(changes.count <= limit)
                var seen = Set<String>()
                for change in changes {
                    let type = try #require(change["type"] as? String)
                    let deleted = try #require(change["deleted"] as? Bool)
                    let photoID = change["photoID"] as? String ?? ""
                    let walkID = change["walkID"] as? String ?? ""
                    #expect(seen.insert("\(type)/\(walkID)/\(photoID)").inserted, "an item once per answer")
                    if token == nil { #expect(!deleted, "the whole state holds nothing deleted") }
                    switch type {
                    case "favorite": favorites[photoID] = deleted ? nil : try #require(change["favorite"] as? [String: Any])
                    case "recent": recents[photoID] = deleted ? nil : try #require(change["recent"] as? [String: Any])
                    case "walk":
                        walks[walkID] = deleted ? nil : try #require(change["walk"] as? [String: Any])
                        if deleted { entries[walkID] = nil }
                    case "walkEntry":
                        entries[walkID, default: [:]][photoID] = deleted ? nil : try #require(change["entry"] as? [String: Any])
                    case "profile":
                        #expect(!deleted)
                        user = try #require(change["user"] as? [String: Any])
                    default: Issue.record("unknown change type \(type)")
                    }
                }
                token = try #require(answer["next"] as? String)
                let more = try #require(answer["more"] as? Bool)
                if more { #expect(changes.count == limit, "a page with more holds exactly limit changes") }
                if !more { return }
            }
        }
    }

    /// What the other endpoints say, in the mirror's shape (objects compared as JSON).
    static func truth(_ device: SignedInClient) throws -> (favorites: [String: String], recents: [String: String],
                                                          walks: [String: String], entries: [String: [String: String]],
                                                          user: String) {
        let favorites = try #require(try device.object("GET", "/favorites?limit=200")["favorites"] as? [[String: Any]])
        let recents = try #require(try device.object("GET", "/recents?limit=100")["recents"] as? [[String: Any]])
        let walks = try #require(try device.object("GET", "/walks?limit=100")["walks"] as? [[String: Any]])
        var entries: [String: [String: String]] = [:]
        for walk in walks {
            let walkID = try #require(walk["walkID"] as? String)
            let page = try device.object("GET", "/walks/\(walkID)?limit=200")
            let listed = try #require(page["entries"] as? [[String: Any]])
            if !listed.isEmpty {
                entries[walkID] = Dictionary(uniqueKeysWithValues: try listed.map { (try #require($0["photoID"] as? String), try json($0)) })
            }
        }
        return (
            Dictionary(uniqueKeysWithValues: try favorites.map { (try #require($0["photoID"] as? String), try json($0)) }),
            Dictionary(uniqueKeysWithValues: try recents.map { (try #require($0["photoID"] as? String), try json($0)) }),
            Dictionary(uniqueKeysWithValues: try walks.map { (try #require($0["walkID"] as? String), try json($0)) }),
            entries,
            try json(try device.object("GET", "/users/me")))
    }

    static func json(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    static func expectEqual(_ mirror: Mirror, _ device: SignedInClient, step: Int) throws {
        let truth = try truth(device)
        #expect(try mirror.favorites.mapValues(json) == truth.favorites, "favorites at step \(step)")
        #expect(try mirror.recents.mapValues(json) == truth.recents, "recents at step \(step)")
        #expect(try mirror.walks.mapValues(json) == truth.walks, "walks at step \(step)")
        #expect(try mirror.entries.filter { !$0.value.isEmpty }.mapValues { try $0.mapValues(json) } == truth.entries,
                "walk entries at step \(step)")
        #expect(try mirror.user.map(json) == truth.user, "profile at step \(step)")
    }

    @Test(arguments: [1, 2, 3]) func aMirrorBuiltFromSyncMatchesTheEndpoints(seed: UInt64) throws {
        let app = try TestApplication()
        let phone = try SignedInClient(port: app.port, username: "oracle\(seed)")
        let tablet = try SignedInClient(port: app.port, username: "oracle\(seed)", logIn: true)
        let photos = try phone.catalogPhotoIDs(110)
        var random = SeededGenerator(seed: seed)
        var mirrors = [Mirror(), Mirror()]
        var walkIDs: [String] = []
        // Points around Union Square, far enough apart to be accepted.
        var step = 0.0
        for index in 0..<60 {
            let device = Bool.random(using: &random) ? phone : tablet
            let photo = photos[Int.random(in: 0..<photos.count, using: &random)]
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<30: _ = try device.send("PUT", "/favorites/\(photo)")
            case 30..<40: _ = try device.send("DELETE", "/favorites/\(photo)")
            case 40..<65: _ = try device.send("PUT", "/recents/\(photo)")
            case 65..<67: _ = try device.send("DELETE", "/recents")
            case 67..<72:
                let walk = try device.object("POST", "/walks")
                walkIDs.append(try #require(walk["walkID"] as? String))
            case 72..<88 where !walkIDs.isEmpty:
                let walkID = walkIDs[Int.random(in: 0..<walkIDs.count, using: &random)]
                step += 1
                let point = #"{"latitude":\#(40.7359 + step * 0.0011),"longitude":-73.9911}"#
                _ = try device.send("POST", "/walks/\(walkID)/points", body: point)
            case 88..<91 where !walkIDs.isEmpty:
                let walkID = walkIDs[Int.random(in: 0..<walkIDs.count, using: &random)]
                let page = try device.send("GET", "/walks/\(walkID)?limit=1")
                if page.status == 200, let entry = (try page.object()["entries"] as? [[String: Any]])?.first,
                    let photoID = entry["photoID"] as? String {
                    _ = try device.send("DELETE", "/walks/\(walkID)/photos/\(photoID)")
                }
            case 91..<93 where !walkIDs.isEmpty:
                _ = try device.send("DELETE", "/walks/\(walkIDs.removeFirst())")
            case 93..<98:
                _ = try device.send("PATCH", "/users/me", body: #"{"displayName":"step \#(index)"}"#)
            case 98..<100:
                #expect(try device.send("DELETE", "/users/me/data").status == 204)
                walkIDs.removeAll()
            default:
                _ = try device.send("PUT", "/recents/\(photo)")
            }
            let who = Int.random(in: 0..<2, using: &random)
            try mirrors[who].catchUp(who == 0 ? phone : tablet, limit: Int.random(in: 1...7, using: &random))
            try Self.expectEqual(mirrors[who], who == 0 ? phone : tablet, step: index)
        }
    }
}
