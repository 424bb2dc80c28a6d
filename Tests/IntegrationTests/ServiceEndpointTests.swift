import Foundation
import Testing
import TestSupport

/// The assembled application over real sockets: service routes, catalog routes through the
/// whole stack (ETag, gzip, HEAD, errors), and the cross-cutting rules of openapi.yaml's description.
@Suite struct ServiceEndpointTests {
    @Test func healthzAnswersOnceTheCatalogIsLoaded() throws {
        let app = try TestApplication()
        let response = try app.connect().request("GET", "/healthz")
        #expect(response.status == 200)
        #expect(response.bodyText == #"{"status":"ok"}"#)
        #expect(response.header("Content-Type") == "application/json; charset=utf-8")
    }

    /// Two `Authorization` headers are refused before routing, on a public endpoint too.
    @Test func twoAuthorizationHeadersAre400EvenOnHealthz() throws {
        let app = try TestApplication()
        let response = try app.connect().request(
            "GET", "/healthz", headers: [("Authorization", "Bearer a"), ("Authorization", "Bearer a")])
        #expect(response.status == 400)
        #expect(response.header("Content-Type") == "application/problem+json")
        #expect(response.problemDetail.contains("Authorization"))
    }

    @Test func openAPIDocumentIsServedAsIs() throws {
        let app = try TestApplication()
        let response = try app.connect().request("GET", "/openapi.yaml")
        #expect(response.status == 200)
        #expect(response.header("Content-Type")?.hasPrefix("application/yaml") == true)
        let file = try Data(contentsOf: URL(fileURLWithPath: PackageRoot.path + "/openapi.yaml"))
        #expect(response.body == Array(file))
    }

    @Test func unknownPathIsAProblem404() throws {
        let app = try TestApplication()
        let response = try app.connect().request("GET", "/no-such-thing")
        #expect(response.status == 404)
        #expect(response.header("Content-Type") == "application/problem+json")
        let problem = try #require(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        #expect(problem["status"] as? Int == 404)
        #expect(problem["title"] is String && problem["detail"] is String && problem["type"] is String)
    }

    @Test func wrongMethodIs405WithAllow() throws {
        let app = try TestApplication()
        let response = try app.connect().request("POST", "/nearby?lat=40.7&lon=-74", body: [])
        #expect(response.status == 405)
        let allowed = Set((response.header("Allow") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(allowed.isSuperset(of: ["GET", "HEAD"]))
        #expect(!allowed.contains("POST"))
    }

    @Test func nearbyThroughTheStackHasETagGzipAndHead() throws {
        let app = try TestApplication()
        let client = try app.connect()
        let target = "/nearby?lat=40.7306&lon=-73.9866&limit=10&photos=5"
        let plain = try client.request("GET", target)
        #expect(plain.status == 200)
        let json = try #require(JSONSerialization.jsonObject(with: Data(plain.body)) as? [String: Any])
        let locations = try #require(json["locations"] as? [[String: Any]])
        #expect(locations.count == 10)
        let distances = locations.compactMap { $0["distanceMeters"] as? Double }
        #expect(distances == distances.sorted())
        let etag = try #require(plain.header("ETag"))

        let revalidated = try client.request("GET", target, headers: [("If-None-Match", etag)])
        #expect(revalidated.status == 304)
        #expect(revalidated.body.count == 0)

        let compressed = try client.request("GET", target, headers: [("Accept-Encoding", "gzip")])
        #expect(compressed.header("Content-Encoding") == "gzip")
        #expect(compressed.header("Vary")?.contains("Accept-Encoding") == true)
        #expect(compressed.body.count < plain.body.count)
        let decompressedMatches = try gunzip(compressed.body) == plain.body
        #expect(decompressedMatches)

        let head = try client.request("HEAD", target)
        #expect(head.status == 200)
        #expect(head.header("Content-Length") == String(plain.body.count))
        #expect(head.body.count == 0)
    }

    @Test func badParameterIsA400NamingIt() throws {
        let app = try TestApplication()
        let response = try app.connect().request("GET", "/nearby?lat=NaN&lon=-74")
        #expect(response.status == 400)
        #expect(response.header("Content-Type") == "application/problem+json")
        #expect(response.bodyText.contains("lat"))
    }

    @Test func photoDetailsAndUnknownPhoto() throws {
        let app = try TestApplication()
        let client = try app.connect()
        let photo = try client.request("GET", "/photos/729011f-a")
        #expect(photo.status == 200)
        let json = try #require(JSONSerialization.jsonObject(with: Data(photo.body)) as? [String: Any])
        #expect(json["photoID"] as? String == "729011f-a")
        #expect(json["borough"] as? String == "Staten Island")
        #expect(try client.request("GET", "/photos/not-a-photo").status == 404)
    }

    @Test func corsPreflightAllowsAuthorizationOnProtectedEndpoints() throws {
        let app = try TestApplication()
        let response = try app.connect().request(
            "OPTIONS", "/favorites/729011f-a",
            headers: [
                ("Origin", "https://example.org"), ("Access-Control-Request-Method", "PUT"),
                ("Access-Control-Request-Headers", "authorization, content-type"),
            ])
        #expect(response.status == 204)
        #expect(response.header("Access-Control-Allow-Origin") == "*")
        #expect(response.header("Access-Control-Allow-Methods")?.contains("PUT") == true)
        let allowedHeaders = response.header("Access-Control-Allow-Headers")?.lowercased() ?? ""
        #expect(allowedHeaders.contains("authorization") && allowedHeaders.contains("content-type"))
    }
}
