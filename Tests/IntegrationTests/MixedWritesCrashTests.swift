import Catalog
import Dispatch
import Foundation
import SQLite
import Synchronization
import Testing
import TestSupport

/// Durability of every kind of write at once: each client saves favorites, records
/// views, adds walk points, changes its password and renames itself in turn (all of
/// them group-committed), and the server is killed
/// with `kill -9` while they do. After a restart every acknowledged write is there and
/// the accounts database passes `PRAGMA integrity_check`.
@Suite(.serialized) struct MixedWritesCrashTests {
    static let clients = 4
    static let stepsPerClient = 60
    /// Acknowledged writes (of all clients) after which the server is killed.
    static let killAfter = 100

    /// What one client saw acknowledged with a 2xx.
    struct Acknowledged {
        var favorites: [String] = []
        var recents: [String] = []
        var walkPoints = 0
        /// The number of the last password change acknowledged (0: the first password).
        var password = 0
        /// The step of the last display name acknowledged (names are "step <n>").
        var displayNameStep: Int?
    }
    static let kinds = 5

    static func password(_ number: Int) -> String { "mixed writes password number \(number)" }

    @Test func acknowledgedWritesOfEveryKindSurviveKill9() throws {
        let catalog = try SharedCatalog.catalog()
        let points = WalkCrashTests.points(catalog)
        try #require(points.count >= Self.clients * Self.stepsPerClient / Self.kinds)
        let directory = try TemporaryDirectory(prefix: "mixed-crash")
        try SharedCatalog.copy(into: directory.path)
        var server = try ServerProcess(dataDirectory: directory.path)
        let photoIDs = try Self.photoIDs(port: server.port)
        try #require(photoIDs.count >= Self.clients * Self.stepsPerClient)

        // Each client: its user, token and walk, set up before the writes begin.
        var users: [(name: String, token: String, walkID: String)] = []
        for client in 0..<Self.clients {
            let name = "mixed-\(client)"
            let connection = try RawHTTPClient(port: server.port, timeout: .seconds(30))
            let registered = try connection.requestJSON(
                "POST", "/users", json: #"{"username":"\#(name)","password":"\#(Self.password(0))"}"#)
            try #require(registered.status == 201)
            let token = try #require(try registered.object()["token"] as? String)
            let walk = try connection.requestJSON("POST", "/walks", token: token)
            try #require(walk.status == 201)
            users.append((name, token, try #require(try walk.object()["walkID"] as? String)))
        }

        let acknowledged = Mutex<[Acknowledged]>(Array(repeating: Acknowledged(), count: Self.clients))
        let total = Atomic<Int>(0)
        let enough = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        let port = server.port
        for client in 0..<Self.clients {
            let user = users[client]
            let mine = photoIDs.enumerated().filter { $0.offset % Self.clients == client }.map(\.element)
            let myPoints = points.enumerated().filter { $0.offset % Self.clients == client }.map(\.element)
            DispatchQueue.global().async(group: group) {
                // Writes until the connection dies with the server; a write counts only
                // once its 2xx response has arrived.
                guard let connection = try? RawHTTPClient(port: port, timeout: .seconds(30)) else { return }
                var passwords = 0
                for step in 0..<Self.stepsPerClient {
                    let photoID = mine[step]
                    let request: (String, String, String?) =
                        switch step % Self.kinds {
                        case 0: ("PUT", "/favorites/\(photoID)", nil)
                        case 1: ("PUT", "/recents/\(photoID)", nil)
                        case 2:
                            ("POST", "/walks/\(user.walkID)/points",
                                #"{"latitude":\#(myPoints[step / Self.kinds].0),"longitude":\#(myPoints[step / Self.kinds].1)}"#)
                        case 4: ("PATCH", "/users/me", #"{"displayName":"step \#(step)"}"#)
                        default:
                            ("PUT", "/users/me/password",
                                #"{"currentPassword":"\#(Self.password(passwords))","newPassword":"\#(Self.password(passwords + 1))"}"#)
                        }
                    guard let response = try? connection.requestJSON(request.0, request.1, json: request.2, token: user.token),
                        (200..<300).contains(response.status)
                    else { return }
                    acknowledged.withLock { acks in
                        switch step % Self.kinds {
                        case 0: acks[client].favorites.append(photoID)
                        case 1: acks[client].recents.append(photoID)
                        case 2: if response.status == 201 { acks[client].walkPoints += 1 }
                        case 4: acks[client].displayNameStep = step
                        default:
                            passwords += 1
                            acks[client].password = passwords
                        }
                    }
                    if total.add(1, ordering: .relaxed).newValue == Self.killAfter { enough.signal() }
                }
            }
        }
        try #require(enough.wait(timeout: .now() + 180) == .success, "the clients could not make \(Self.killAfter) writes")
        server.kill9()
        group.wait()
        let acks = acknowledged.withLock { $0 }
        #expect(total.load(ordering: .relaxed) < Self.clients * Self.stepsPerClient, "the kill came while writes were going on")

        server = try ServerProcess(dataDirectory: directory.path)
        for (client, user) in users.enumerated() {
            let connection = try RawHTTPClient(port: server.port, timeout: .seconds(30))
            // The last acknowledged password, or the one of a change in flight at the kill.
            var token: String?
            for number in [acks[client].password, acks[client].password + 1] where token == nil {
                let login = try connection.requestJSON(
                    "POST", "/users/login", json: #"{"username":"\#(user.name)","password":"\#(Self.password(number))"}"#)
                if login.status == 200 { token = try login.object()["token"] as? String }
            }
            let signedIn = try #require(token, "\(user.name) cannot sign in with an acknowledged password")

            let favorites = try connection.requestJSON("GET", "/favorites?limit=200", token: signedIn)
            let saved = Set(((try favorites.object())["favorites"] as? [[String: Any]] ?? []).compactMap { $0["photoID"] as? String })
            #expect(Set(acks[client].favorites).isSubset(of: saved), "\(user.name): favorites lost")

            let recents = try connection.requestJSON("GET", "/recents?limit=100", token: signedIn)
            let viewed = Set(((try recents.object())["recents"] as? [[String: Any]] ?? []).compactMap { $0["photoID"] as? String })
            #expect(Set(acks[client].recents).isSubset(of: viewed), "\(user.name): recents lost")

            let walk = try connection.requestJSON("GET", "/walks/\(user.walkID)?limit=1", token: signedIn)
            let pointCount = ((try walk.object())["walk"] as? [String: Any])?["pointCount"] as? Int ?? -1
            #expect(pointCount >= acks[client].walkPoints, "\(user.name): walk points lost")

            if let step = acks[client].displayNameStep {
                let me = try connection.requestJSON("GET", "/users/me", token: signedIn)
                let name = try me.object()["displayName"] as? String ?? ""
                let stored = Int(name.split(separator: " ").last ?? "") ?? -1
                #expect(stored >= step, "\(user.name): display name of step \(step) lost")
            }
        }
        #expect(server.stop() == 0)
        let database = try SQLiteConnection(path: directory.file("accounts.sqlite"), mode: .readOnly)
        #expect(try database.queryFirst("PRAGMA integrity_check") { $0.text(0) } == "ok")
    }

    /// Photo IDs of the real catalog around Midtown and Union Square.
    private static func photoIDs(port: Int) throws -> [String] {
        let connection = try RawHTTPClient(port: port)
        var ids: [String] = []
        for (lat, lon) in [(40.7359, -73.9911), (40.7527, -73.9772)] {
            let nearby = try connection.request("GET", "/nearby?lat=\(lat)&lon=\(lon)&limit=100&photos=50").object()
            for location in nearby["locations"] as? [[String: Any]] ?? [] {
                ids += (location["photos"] as? [[String: Any]] ?? []).compactMap { $0["photoID"] as? String }
            }
        }
        return Array(Set(ids)).sorted()
    }
}
