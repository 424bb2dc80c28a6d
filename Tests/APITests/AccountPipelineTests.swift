import Foundation
import Testing
import TestSupport

/// Account routes (blocking handlers on a real accounts database) through the whole
/// request pipeline, without a socket.
@Suite struct AccountPipelineTests {
    static func post(_ path: String, _ json: String, token: String? = nil) -> String {
        let authorization = token.map { "Authorization: Bearer \($0)\r\n" } ?? ""
        return "POST \(path) HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n\(authorization)"
            + "Content-Length: \(json.utf8.count)\r\n\r\n\(json)"
    }

    @Test func registerSignInAndReadTheProfile() throws {
        let client = try PipelineApplication.client()
        let name = "pipeline_\(UInt32.random(in: 0...UInt32.max))"
        let credentials = #"{"username":"\#(name)","password":"correct horse battery staple"}"#
        let registered = try client.send(Self.post("/users", credentials))
        #expect(registered.status == 201)
        let login = try client.send(Self.post("/users/login", credentials))
        #expect(login.status == 200)
        let token = try #require(try login.object()["token"] as? String)
        let me = try client.send("GET /users/me HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \(token)\r\n\r\n")
        #expect(me.status == 200)
        #expect(try me.object()["username"] as? String == name)
        #expect(try client.send(Self.post("/users", credentials)).status == 409)
    }

    @Test func withoutAValidTokenTheProfileIs401() throws {
        let client = try PipelineApplication.client()
        let anonymous = try client.send("GET /users/me HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(anonymous.status == 401)
        #expect(anonymous.header("Content-Type") == "application/problem+json")
        #expect(anonymous.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
        let forged = try client.send("GET /users/me HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer not-a-token\r\n\r\n")
        #expect(forged.status == 401)
    }

    @Test func malformedBodiesAreProblemsNamingTheField() throws {
        let client = try PipelineApplication.client()
        let missing = try client.send(Self.post("/users", #"{"username":"someone"}"#))
        #expect(missing.status == 400)
        #expect(missing.bodyText.contains("password"))
        let broken = try client.send(Self.post("/users", "{not json"))
        #expect(broken.status == 400)
        #expect(broken.header("Content-Type") == "application/problem+json")
    }
}
