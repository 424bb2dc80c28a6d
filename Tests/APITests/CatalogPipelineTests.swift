import Foundation
import Testing
import TestSupport

/// Catalog routes through the whole request pipeline, without a socket.
@Suite struct CatalogPipelineTests {
    static let nearby = "GET /nearby?lat=40.7306&lon=-73.9866&limit=3 HTTP/1.1\r\nHost: t\r\n\r\n"

    @Test func nearbyAnswersJSONWithEveryServerHeader() throws {
        let client = try PipelineApplication.client()
        let response = try client.send(Self.nearby)
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json; charset=utf-8")
        #expect(response.header("Content-Length") == String(response.body.count))
        #expect(response.header("Server") == "past-nyc")
        #expect(response.header("X-Request-ID")?.isEmpty == false)
        #expect(response.header("ETag")?.hasPrefix("\"") == true)
        let object = try #require(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        let locations = try #require(object["locations"] as? [Any])
        #expect(locations.count == 3)
    }

    @Test(arguments: [
        ("/nearby?lat=forty&lon=-73.9", "lat"),
        ("/nearby?lat=40.7", "lon"),
        ("/region?south=40.70&west=-74.02&north=40.75", "east"),
        ("/nearby?lat=40.7306&lon=-73.9866&limit=101", "limit"),
    ])
    func aBadParameterIsAProblemNamingIt(_ target: String, _ parameter: String) throws {
        let client = try PipelineApplication.client()
        let response = try client.send("GET \(target) HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(response.status == 400)
        #expect(response.header("Content-Type") == "application/problem+json")
        #expect(response.bodyText.contains("\"status\":400"))
        #expect(response.bodyText.contains(parameter))
        // The connection stays usable after a bad request.
        #expect(try client.send(Self.nearby).status == 200)
    }

    @Test func unknownPathAndWrongMethodAreProblems() throws {
        let client = try PipelineApplication.client()
        let missing = try client.send("GET /no-such-thing HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(missing.status == 404)
        #expect(missing.header("Content-Type") == "application/problem+json")
        let wrong = try client.send("DELETE /nearby HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(wrong.status == 405)
        #expect(wrong.header("Allow") == "GET, HEAD, OPTIONS")
        #expect(wrong.bodyText.contains("\"status\":405"))
    }

    @Test func headAndConditionalGetFollowTheGet() throws {
        let client = try PipelineApplication.client()
        let get = try client.send(Self.nearby)
        let head = try client.send(Self.nearby.replacingOccurrences(of: "GET ", with: "HEAD "), forHead: true)
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Length") == String(get.body.count))
        let etag = try #require(get.header("ETag"))
        let conditional = try client.send(
            "GET /nearby?lat=40.7306&lon=-73.9866&limit=3 HTTP/1.1\r\nHost: t\r\nIf-None-Match: \(etag)\r\n\r\n")
        #expect(conditional.status == 304)
        #expect(conditional.body.isEmpty)
        #expect(conditional.header("ETag") == etag)
    }

    /// The in-memory pipeline is the server's: a real socket gets the same status, header
    /// fields (but `Date` and the generated request id) and body.
    @Test func theSocketGetsTheSameAnswers() throws {
        let application = try TestApplication()
        let socket = try application.connect()
        let memory = application.inMemoryClient()
        let requests = [
            Self.nearby,
            "GET /region?south=40.70&west=-74.02&north=40.75&east=-73.97&limit=5 HTTP/1.1\r\nHost: t\r\nAccept-Encoding: gzip\r\nX-Request-ID: same-1\r\n\r\n",
            "GET /clusters?south=40.70&west=-74.02&north=40.75&east=-73.97&zoom=13 HTTP/1.1\r\nHost: t\r\nOrigin: https://example.org\r\n\r\n",
            "GET /nearby?lat=91&lon=0 HTTP/1.1\r\nHost: t\r\n\r\n",
            "POST /nearby HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n",
            "OPTIONS /nearby HTTP/1.1\r\nHost: t\r\nOrigin: https://example.org\r\nAccess-Control-Request-Method: GET\r\n\r\n",
            "GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
        ]
        for request in requests {
            try socket.send(request)
            let viaSocket = try socket.readResponse()
            let inMemory = try memory.send(request)
            #expect(viaSocket.status == inMemory.status, "\(request)")
            #expect(Self.comparable(viaSocket.headers) == Self.comparable(inMemory.headers), "\(request)")
            #expect(viaSocket.body == inMemory.body, "\(request)")
        }
    }

    private static func comparable(_ headers: [(name: String, value: String)]) -> [String] {
        headers.map { field in
            if field.name == "Date" { return "Date" }
            if field.name == "X-Request-ID", !field.value.hasPrefix("same-") { return "X-Request-ID" }
            return "\(field.name): \(field.value)"
        }
    }
}
