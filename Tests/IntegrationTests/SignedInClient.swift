import Foundation
import Testing
import TestSupport

/// A user signed in on a real server over one keep-alive connection, for the
/// profile, recents and reset tests.
struct SignedInClient {
    static let password = "a long walk down the Bowery"

    let client: RawHTTPClient
    let token: String

    /// Registers `username` on the server listening on `port`, or with `logIn` signs
    /// in as that (registered) user: another device of the same user.
    init(port: Int, username: String, logIn: Bool = false) throws {
        client = try RawHTTPClient(port: port)
        let registered = try client.requestJSON(
            "POST", logIn ? "/users/login" : "/users", json: #"{"username":"\#(username)","password":"\#(Self.password)"}"#)
        try #require(registered.status == (logIn ? 200 : 201), "\(registered.bodyText)")
        token = try #require(try registered.object()["token"] as? String)
    }

    /// Sends a request with this user's token, or with `authorization` instead when
    /// given, or with no `Authorization` at all when `authorized` is false.
    func send(
        _ method: String, _ target: String, body: String? = nil, contentType: String? = "application/json",
        authorized: Bool = true, authorization: String? = nil
    ) throws -> RawHTTPClient.Response {
        var headers: [(String, String)] = []
        if let contentType { headers.append(("Content-Type", contentType)) }
        if let authorization {
            headers.append(("Authorization", authorization))
        } else if authorized {
            headers.append(("Authorization", "Bearer \(token)"))
        }
        return try client.request(method, target, headers: headers, body: body.map { Array($0.utf8) })
    }

    /// The body of a 2xx response as a JSON object.
    func object(_ method: String, _ target: String, body: String? = nil) throws -> [String: Any] {
        let response = try send(method, target, body: body)
        try #require((200..<300).contains(response.status), "\(method) \(target): \(response.bodyText)")
        return try response.object()
    }

    /// `photoID`s of the recently viewed list, most recent first.
    func recentIDs(limit: Int? = nil) throws -> [String] {
        let list = try object("GET", "/recents" + (limit.map { "?limit=\($0)" } ?? ""))
        return (list["recents"] as? [[String: Any]] ?? []).compactMap { $0["photoID"] as? String }
    }

    func favoriteIDs() throws -> [String] {
        let list = try object("GET", "/favorites?limit=200")
        return (list["favorites"] as? [[String: Any]] ?? []).compactMap { $0["photoID"] as? String }
    }

    /// At least `count` photo IDs of the real catalog (around Union Square).
    func catalogPhotoIDs(_ count: Int) throws -> [String] {
        let nearby = try object("GET", "/nearby?lat=40.7359&lon=-73.9911&limit=100&photos=50")
        let locations = try #require(nearby["locations"] as? [[String: Any]])
        let ids = locations.flatMap { ($0["photos"] as? [[String: Any]] ?? []).compactMap { $0["photoID"] as? String } }
        try #require(ids.count >= count)
        return Array(ids.prefix(count))
    }
}
