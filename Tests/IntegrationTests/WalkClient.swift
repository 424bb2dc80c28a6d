import Foundation
import Testing
import TestSupport

/// A registered user on one keep-alive connection to a running server, with the
/// requests the walk tests make.
final class WalkClient {
    let connection: RawHTTPClient
    let token: String

    struct Reply {
        let status: Int
        let response: RawHTTPClient.Response
        /// The body as a JSON object; empty when it is not one.
        var json: [String: Any] { (try? response.object()) ?? [:] }
        var detail: String { response.problemDetail }
    }

    /// Registers `username` over a new connection.
    init(port: Int, username: String) throws {
        connection = try RawHTTPClient(port: port, timeout: .seconds(30))
        let registered = try connection.requestJSON(
            "POST", "/users", json: #"{"username":"\#(username)","password":"a walk from the Battery"}"#)
        try #require(registered.status == 201, "registering \(username): \(registered.bodyText)")
        token = try #require(try registered.object()["token"] as? String)
    }

    /// Another connection for the same user.
    init(port: Int, token: String) throws {
        connection = try RawHTTPClient(port: port, timeout: .seconds(30))
        self.token = token
    }

    func send(_ method: String, _ target: String, json: String? = nil, authorized: Bool = true) throws -> Reply {
        Reply(response: try connection.requestJSON(method, target, json: json, token: authorized ? token : nil))
    }

    /// Starts a walk and returns its ID.
    func startWalk() throws -> String {
        let reply = try send("POST", "/walks")
        try #require(reply.status == 201, "POST /walks: \(reply.response.bodyText)")
        return try #require(reply.json["walkID"] as? String)
    }

    func post(_ walkID: String, _ latitude: Double, _ longitude: Double) throws -> Reply {
        try send("POST", "/walks/\(walkID)/points", json: #"{"latitude":\#(latitude),"longitude":\#(longitude)}"#)
    }

    /// Pages through `path` (`/walks`, `/walks/{walkID}`) `limit` items at a time, following
    /// `nextCursor` to the end, and returns the `id` of each item of the `list` member, in
    /// order; every page but the last must be full. `afterFirstPage` runs between the first
    /// page and the second.
    func pageThrough(
        _ path: String, limit: Int, list: String, id: String, afterFirstPage: () throws -> Void = {}
    ) throws -> [String] {
        var listed: [String] = []
        var cursor: String?
        var isFirstPage = true
        repeat {
            let reply = try send("GET", "\(path)?limit=\(limit)" + (cursor.map { "&cursor=\($0)" } ?? ""))
            try #require(reply.status == 200, "\(path): \(reply.response.bodyText)")
            let items = try #require(reply.json[list] as? [[String: Any]])
            listed += items.compactMap { $0[id] as? String }
            cursor = reply.json["nextCursor"] as? String
            if cursor != nil { #expect(items.count == limit, "\(path)") }
            if isFirstPage { try afterFirstPage() }
            isFirstPage = false
        } while cursor != nil
        return listed
    }
}

extension WalkClient.Reply {
    init(response: RawHTTPClient.Response) {
        self.init(status: response.status, response: response)
    }
}
