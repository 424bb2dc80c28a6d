import Dispatch
import Foundation
import Synchronization
import TestSupport
import Testing

/// Durability: every favorite the server acknowledged with a 2xx survives a
/// `kill -9` of the server in the middle of concurrent saves, and a `GET /sync`
/// from the token taken before them lists every one (the change log is written in
/// the same transaction as the favorite).
@Suite(.serialized) struct FavoritesCrashTests {
    static let clients = 4
    /// Acknowledged saves after which the server is killed (while clients keep saving).
    static let killAfter = 80

    @Test func acknowledgedFavoritesSurviveKill9() throws {
        let directory = try TemporaryDirectory(prefix: "accounts-crash")
        // The catalog built once for the tests, so the server starts without importing it.
        try SharedCatalog.copy(into: directory.path)
        var server = try ServerProcess(dataDirectory: directory.path)

        let token = try Self.register(port: server.port)
        let photoIDs = try Self.photoIDs(port: server.port)
        #expect(photoIDs.count >= Self.clients * 50)
        let syncToken = try #require(
            try Self.jsonObject(try Self.request(port: server.port, "GET", "/sync", token: token))["next"] as? String)

        let acknowledged = Mutex<Set<String>>([])
        let enough = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        let port = server.port
        for client in 0..<Self.clients {
            let mine = photoIDs.enumerated().filter { $0.offset % Self.clients == client }.map(\.element)
            DispatchQueue.global().async(group: group) {
                // Saves until the connection dies with the server; a save counts only
                // once its 2xx response has arrived.
                guard let connection = try? RawHTTPClient(port: port) else { return }
                for photoID in mine {
                    guard let response = try? connection.requestJSON("PUT", "/favorites/\(photoID)", token: token),
                        (200..<300).contains(response.status)
                    else { return }
                    let count = acknowledged.withLock { saved in
                        saved.insert(photoID)
                        return saved.count
                    }
                    if count == Self.killAfter { enough.signal() }
                }
            }
        }
        try #require(enough.wait(timeout: .now() + 120) == .success, "the clients could not save \(Self.killAfter) favorites")
        server.kill9()
        group.wait()
        let saved = acknowledged.withLock { $0 }
        #expect(saved.count >= Self.killAfter)
        #expect(saved.count < photoIDs.count, "the kill came while saves were still going on")

        server = try ServerProcess(dataDirectory: directory.path)
        let listed = try Self.allFavorites(port: server.port, token: token)
        #expect(saved.isSubset(of: Set(listed)), "lost after the crash: \(saved.subtracting(listed).sorted())")
        #expect(Set(listed).count == listed.count, "no favorite is listed twice")
        let synced = try Self.syncedFavorites(port: server.port, token: token, since: syncToken)
        #expect(saved.isSubset(of: synced), "missing from /sync after the crash: \(saved.subtracting(synced).sorted())")
        server.stop()
    }

    /// One request on its own connection.
    private static func request(
        port: Int, _ method: String, _ target: String, token: String? = nil, json: String? = nil
    ) throws -> RawHTTPClient.Response {
        try RawHTTPClient(port: port, timeout: .seconds(30)).requestJSON(method, target, json: json, token: token)
    }

    private static func jsonObject(_ response: RawHTTPClient.Response) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    private static func register(port: Int) throws -> String {
        let response = try request(
            port: port, "POST", "/users", json: #"{"username": "crash-test", "password": "survives kill nine"}"#)
        try #require(response.status == 201)
        return try #require(try jsonObject(response)["token"] as? String)
    }

    /// Photos around Union Square, from the real catalog.
    private static func photoIDs(port: Int) throws -> [String] {
        let response = try request(port: port, "GET", "/nearby?lat=40.7359&lon=-73.9911&limit=100&photos=50")
        try #require(response.status == 200)
        let locations = try #require(try jsonObject(response)["locations"] as? [[String: Any]])
        return locations.flatMap { ($0["photos"] as? [[String: Any]] ?? []).compactMap { $0["photoID"] as? String } }
    }

    /// The photos of the favorites `GET /sync` lists as saved after `since`, every page.
    private static func syncedFavorites(port: Int, token: String, since: String) throws -> Set<String> {
        var saved: Set<String> = []
        var next = since
        for _ in 0..<1000 {
            let answer = try jsonObject(try request(port: port, "GET", "/sync?limit=50&since=\(next)", token: token))
            for change in answer["changes"] as? [[String: Any]] ?? [] where change["type"] as? String == "favorite" {
                if let photoID = change["photoID"] as? String, change["deleted"] as? Bool == false { saved.insert(photoID) }
            }
            next = try #require(answer["next"] as? String)
            if answer["more"] as? Bool != true { break }
        }
        return saved
    }

    private static func allFavorites(port: Int, token: String) throws -> [String] {
        var photoIDs: [String] = []
        var cursor: String?
        for _ in 0..<100 {
            let target = "/favorites?limit=200" + (cursor.map { "&cursor=\($0)" } ?? "")
            let response = try request(port: port, "GET", target, token: token)
            try #require(response.status == 200)
            let page = try jsonObject(response)
            let favorites = try #require(page["favorites"] as? [[String: Any]])
            photoIDs += favorites.compactMap { $0["photoID"] as? String }
            cursor = page["nextCursor"] as? String
            if cursor == nil { break }
        }
        return photoIDs
    }
}
