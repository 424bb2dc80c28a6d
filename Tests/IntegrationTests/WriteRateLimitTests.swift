import Foundation
import Testing
import TestSupport

/// `--user-write-rate` on the real executable over a socket: a user's writes past the
/// burst are refused with a 429 and `Retry-After` and write nothing, while reads and
/// other users go on; a bad value is refused at start.
@Suite struct WriteRateLimitTests {
    @Test func writesPastTheBurstAre429sWithRetryAfter() throws {
        let directory = try TemporaryDirectory(prefix: "write-rate")
        try SharedCatalog.copy(into: directory.path)
        let root = PackageRoot.path
        let server = try ServerProcess(arguments: [
            "--data-dir", directory.path, "--source-dir", root + "/Data", "--openapi", root + "/openapi.yaml",
            "--web-dir", root + "/Web", "--user-write-rate", "1",
        ])
        let client = try RawHTTPClient(port: server.port)
        func register(_ name: String) throws -> String {
            let response = try client.requestJSON("POST", "/users", json: #"{"username":"\#(name)","password":"a long enough password"}"#)
            try #require(response.status == 201)
            return try #require(try response.object()["token"] as? String)
        }
        let token = try register("hasty")
        let other = try register("patient")

        // A burst of 10 (rate 1), plus one a second while these run: a 429 comes within 40.
        let started = Date()
        var admitted = 0
        var refusal: RawHTTPClient.Response?
        for index in 0..<40 {
            let response = try client.requestJSON("PATCH", "/users/me", json: #"{"displayName":"name \#(index)"}"#, token: token)
            if response.status == 429 {
                refusal = response
                break
            }
            try #require(response.status == 200, "write \(index): \(response.status)")
            admitted += 1
        }
        let refused = try #require(refusal, "no 429 in 40 writes")
        #expect(admitted >= 10)
        #expect(admitted <= 10 + Int(Date().timeIntervalSince(started).rounded(.up)))
        #expect(Int(refused.header("Retry-After") ?? "") ?? 0 >= 1)
        #expect(refused.header("Content-Type") == "application/problem+json")
        let me = try client.requestJSON("GET", "/users/me", token: token)
        #expect(me.status == 200)
        #expect(try me.object()["displayName"] as? String == "name \(admitted - 1)")
        #expect(try client.requestJSON("PATCH", "/users/me", json: #"{"displayName":"other"}"#, token: other).status == 200)
        #expect(server.stop() == 0)
    }

    @Test func aNegativeRateIsRefused() throws {
        let dataDirectory = try TemporaryDirectory()
        let (status, output) = try ServerProcess.runToExit(
            ConfigurationTests.serve(["--data-dir", dataDirectory.path, "--user-write-rate=-1"]))
        #expect(status == 64, "\(output)")
        #expect(output.contains("--user-write-rate must be 0 (no limit) or more, got -1"), "\(output)")
    }
}
