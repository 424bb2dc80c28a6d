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
        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
        }
        var detail: String { json["detail"] as? String ?? "" }
    }

    /// Registers `username` over a new connection.
    init(port: Int, username: String) throws {
        connection = try RawHTTPClient(port: port, timeout: .seconds(30))
        let registered = try connection.requestJSON(
            "POST", "/users", json: #"{"username":"\#(username)","password":"a walk from the Battery"}"#)
        try #require(registered.status == 201, "registering \(username): \(registered.bodyText)")
        let body = try #require(try JSONSerialization.jsonObject(with: Data(registered.body)) as? [String: Any])
        token = try #require(body["token"] as? String)
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
}

extension WalkClient.Reply {
    init(response: RawHTTPClient.Response) {
        self.init(status: response.status, response: response)
    }
}
