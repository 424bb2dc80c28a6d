import Foundation
import Testing
import TestSupport

@testable import HTTPServer

@Suite struct ResponseTests {
    private func get(_ path: String, _ headers: String = "", server: TestServer) throws -> RawHTTPClient.Response {
        let client = try server.client()
        try client.send("GET \(path) HTTP/1.1\r\nHost: t\r\n\(headers)\r\n")
        return try client.readResponse()
    }

    @Test func gzipWhenAcceptedAndLargeEnough() throws {
        try TestServer.with { server in
            let response = try get("/big", "Accept-Encoding: br;q=1.0, gzip;q=0.5\r\n", server: server)
            #expect(response.header("Content-Encoding") == "gzip")
            #expect(response.header("Vary") == "Accept-Encoding")
            #expect(response.body.count < TestServer.bigBody.count)
            #expect(try gunzip(response.body) == TestServer.bigBody)
        }
    }

    struct EncodingRow: CustomTestStringConvertible, Sendable {
        let acceptEncoding: String?
        let path: String
        let gzipped: Bool
        var testDescription: String { "\(path) \(acceptEncoding ?? "none")" }
    }

    static let encodings: [EncodingRow] = [
        EncodingRow(acceptEncoding: nil, path: "/big", gzipped: false),
        EncodingRow(acceptEncoding: "gzip;q=0", path: "/big", gzipped: false),
        EncodingRow(acceptEncoding: "gzip; q=0.000", path: "/big", gzipped: false),
        EncodingRow(acceptEncoding: "br, deflate", path: "/big", gzipped: false),
        EncodingRow(acceptEncoding: "*", path: "/big", gzipped: true),
        EncodingRow(acceptEncoding: "*, gzip;q=0", path: "/big", gzipped: false),
        EncodingRow(acceptEncoding: "GZIP", path: "/big", gzipped: true),
        EncodingRow(acceptEncoding: "gzip", path: "/hello", gzipped: false),
    ]

    @Test(arguments: encodings)
    func gzipFollowsAcceptEncodingAndSize(_ row: EncodingRow) throws {
        try TestServer.with { server in
            let header = row.acceptEncoding.map { "Accept-Encoding: \($0)\r\n" } ?? ""
            let response = try get(row.path, header, server: server)
            #expect(response.status == 200)
            #expect((response.header("Content-Encoding") == "gzip") == row.gzipped)
            #expect(response.header("Vary") == "Accept-Encoding")
        }
    }

    @Test func etagAndConditionalGet() throws {
        try TestServer.with { server in
            let plain = try get("/big", server: server)
            let zipped = try get("/big", "Accept-Encoding: gzip\r\n", server: server)
            let tag = try #require(plain.header("ETag"))
            let gzipTag = try #require(zipped.header("ETag"))
            #expect(tag == HTTPResponse.strongETag(for: TestServer.bigBody))
            #expect(tag.hasPrefix("\"") && tag.hasSuffix("\""))
            #expect(gzipTag != tag)

            for condition in [tag, "W/\(tag)", "\"other\", \(tag)", "*", gzipTag] {
                let response = try get("/big", "If-None-Match: \(condition)\r\n", server: server)
                #expect(response.status == 304, "If-None-Match: \(condition)")
                #expect(response.body.isEmpty)
                #expect(response.header("ETag") == tag)
                #expect(response.header("Vary") == "Accept-Encoding")
                #expect(response.header("Content-Length") == nil)
            }
            let zippedNotModified = try get("/big", "If-None-Match: \(tag)\r\nAccept-Encoding: gzip\r\n", server: server)
            #expect(zippedNotModified.status == 304)
            #expect(zippedNotModified.header("ETag") == gzipTag)
            let changed = try get("/big", "If-None-Match: \"something-else\"\r\n", server: server)
            #expect(changed.status == 200)
            #expect(changed.body == TestServer.bigBody)
        }
    }

    @Test func unknownPathIs404Problem() throws {
        try TestServer.with { server in
            let response = try get("/nowhere", server: server)
            #expect(response.status == 404)
            #expect(response.header("Content-Type") == "application/problem+json")
            let json = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
            #expect(json?["status"] as? Int == 404)
            #expect(json?["title"] as? String == "Not Found")
            #expect(json?["type"] as? String == "about:blank")
            #expect(json?["detail"] is String)
        }
    }

    @Test func wrongMethodIs405WithAllow() throws {
        try TestServer.with { server in
            let client = try server.client()
            try client.send("PUT /hello HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\n{}")
            let response = try client.readResponse()
            #expect(response.status == 405)
            #expect(response.header("Allow") == "GET, DELETE, HEAD, OPTIONS")
            #expect(response.header("Content-Type") == "application/problem+json")
            try client.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(try client.readResponse().status == 200)
        }
    }

    @Test func optionsAndCORSPreflight() throws {
        try TestServer.with { server in
            let client = try server.client()
            try client.send("OPTIONS /hello HTTP/1.1\r\nHost: t\r\n\r\n")
            let plain = try client.readResponse()
            #expect(plain.status == 204)
            #expect(plain.header("Allow") == "GET, DELETE, HEAD, OPTIONS")
            #expect(plain.header("Access-Control-Allow-Origin") == nil)
            #expect(plain.header("Content-Length") == nil)

            try client.send(
                "OPTIONS /items/7 HTTP/1.1\r\nHost: t\r\nOrigin: https://app.example\r\nAccess-Control-Request-Method: GET\r\n\r\n")
            let preflight = try client.readResponse()
            #expect(preflight.status == 204)
            #expect(preflight.header("Access-Control-Allow-Origin") == "*")
            #expect(preflight.header("Access-Control-Allow-Methods") == "GET, HEAD, OPTIONS")
            #expect(preflight.header("Access-Control-Allow-Headers") == "Authorization, Content-Type, If-None-Match, If-Range, Range, X-Request-ID")
            #expect(preflight.header("Access-Control-Max-Age") == "86400")

            try client.send("OPTIONS /nowhere HTTP/1.1\r\nHost: t\r\nOrigin: https://app.example\r\n\r\n")
            #expect(try client.readResponse().status == 404)

            try client.send("GET /hello HTTP/1.1\r\nHost: t\r\nOrigin: https://app.example\r\n\r\n")
            let simple = try client.readResponse()
            #expect(simple.header("Access-Control-Allow-Origin") == "*")
            #expect(simple.header("Access-Control-Expose-Headers") == "ETag, Retry-After, WWW-Authenticate, Location, X-Request-ID, Content-Range")
        }
    }

    @Test func requestIDIsEchoedWhenSaneAndGeneratedOtherwise() throws {
        try TestServer.with { server in
            let echoed = try get("/request-id", "X-Request-ID: abc-123_DEF.4\r\n", server: server)
            #expect(echoed.header("X-Request-ID") == "abc-123_DEF.4")
            #expect(echoed.bodyText == "abc-123_DEF.4")

            for bad in ["has space", "semi;colon", String(repeating: "a", count: 129)] {
                let generated = try get("/request-id", "X-Request-ID: \(bad)\r\n", server: server)
                let id = try #require(generated.header("X-Request-ID"))
                #expect(id != bad)
                #expect(!id.isEmpty)
                #expect(generated.bodyText == id)
            }
            let first = try get("/request-id", server: server).header("X-Request-ID")
            let second = try get("/request-id", server: server).header("X-Request-ID")
            #expect(first != nil && first != second)
        }
    }

    @Test func pathAndQueryArePercentDecoded() throws {
        try TestServer.with { server in
            let item = try get("/items/caf%C3%A9", server: server)
            #expect(item.bodyText.contains(#""id":"café""#))
            let query = try get("/echo-query?q=a+b%2Bc&empty=&flag&x=%26", server: server)
            #expect(query.bodyText == "q=a b+c|empty=|flag=|x=&")
        }
    }

    @Test func handlerErrorsBecomeProblems() throws {
        try TestServer.with { server in
            let conflict = try get("/conflict", server: server)
            #expect(conflict.status == 409)
            #expect(conflict.header("Content-Type") == "application/problem+json")
            let json = try JSONSerialization.jsonObject(with: Data(conflict.body)) as? [String: Any]
            #expect(json?["detail"] as? String == "The \"thing\" already exists.")

            let crash = try get("/crash", server: server)
            #expect(crash.status == 500)
            #expect(crash.header("Content-Type") == "application/problem+json")
            #expect(!crash.bodyText.contains("secret"))
        }
    }
}
