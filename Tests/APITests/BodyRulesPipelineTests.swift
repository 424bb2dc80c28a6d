import Foundation
import Testing
import TestSupport

/// The body rules of fair use through the whole request pipeline: the limits, repeated
/// names, the encoding, and unknown fields on every endpoint that reads a body.
@Suite struct BodyRulesPipelineTests {
    static func post(_ client: InMemoryHTTPClient, _ path: String, _ body: [UInt8], token: String? = nil) throws -> RawHTTPClient.Response {
        var headers = [("Content-Type", "application/json")]
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        return try client.request("POST", path, headers: headers, body: body)
    }

    /// The problem's detail, once the answer is checked to be a 400 problem.
    static func refusal(_ response: RawHTTPClient.Response) throws -> String {
        #expect(response.status == 400, "\(response.bodyText)")
        #expect(response.header("Content-Type") == "application/problem+json")
        return try #require(try response.object()["detail"] as? String)
    }

    @Test func aLoginOf64NestsOf500DeepArraysIsRefusedNamingDepth() throws {
        let nest = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        let body = Array(("[" + Array(repeating: nest, count: 64).joined(separator: ",") + "]").utf8)
        #expect(body.count <= 64 * 1024)
        let detail = try Self.refusal(try Self.post(try PipelineApplication.client(), "/users/login", body))
        #expect(detail.contains("depth"), "\(detail)")
    }

    @Test func tenThousandAndOneValuesAreRefused() throws {
        let body = Array(("[" + Array(repeating: "0", count: 10_001).joined(separator: ",") + "]").utf8)
        let detail = try Self.refusal(try Self.post(try PipelineApplication.client(), "/users", body))
        #expect(detail.contains("10000 values"), "\(detail)")
    }

    @Test func aRepeatedNameIsRefusedNamingIt() throws {
        let body = #"{"username":"twice","password":"correct horse battery staple","username":"again"}"#
        let detail = try Self.refusal(try Self.post(try PipelineApplication.client(), "/users", Array(body.utf8)))
        #expect(detail.hasPrefix("username "), "\(detail)")
    }

    @Test(arguments: [
        [0xEF, 0xBB, 0xBF] + Array(#"{"username":"bom","password":"correct horse battery staple"}"#.utf8),
        Array(#"{"username":"caf"#.utf8) + [0xE9] + Array(#"","password":"correct horse battery staple"}"#.utf8),
        Array(#"{"username":"x","password":"y"}"#.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),
    ])
    func aBodyNotInUTF8IsRefused(body: [UInt8]) throws {
        let detail = try Self.refusal(try Self.post(try PipelineApplication.client(), "/users", body))
        #expect(detail.contains("UTF-8 without a byte order mark"), "\(detail)")
    }

    @Test func anUnknownFieldIsRefusedNamingItOnEveryAccountEndpoint() throws {
        let client = try PipelineApplication.client()
        let name = "fields_\(UInt32.random(in: 0...UInt32.max))"
        let extra = #""password":"correct horse battery staple","email":"a@example.org""#
        let register = try Self.refusal(try Self.post(client, "/users", Array(#"{"username":"\#(name)",\#(extra)}"#.utf8)))
        #expect(register == "unknown field email")
        let token = try client.registerUser(named: name)
        let login = try Self.refusal(try Self.post(client, "/users/login", Array(#"{"username":"\#(name)",\#(extra)}"#.utf8)))
        #expect(login == "unknown field email")
        let headers = [("Content-Type", "application/json"), ("Authorization", "Bearer \(token)")]
        let change = #"{"currentPassword":"correct horse battery staple","newPassword":"another horse battery","confirm":1}"#
        let changed = try Self.refusal(try client.request("PUT", "/users/me/password", headers: headers, body: Array(change.utf8)))
        #expect(changed == "unknown field confirm")
        let delete = #"{"password":"correct horse battery staple","reason":"moving"}"#
        let deleted = try Self.refusal(try client.request("DELETE", "/users/me", headers: headers, body: Array(delete.utf8)))
        #expect(deleted == "unknown field reason")
        // Nothing was changed: the password still works, the account is there.
        let login2 = try Self.post(client, "/users/login", Array(#"{"username":"\#(name)","password":"correct horse battery staple"}"#.utf8))
        #expect(login2.status == 200)
    }
}
