import Foundation
import Testing
import TestSupport

/// `GET /clusters` over real sockets, through the whole stack.
@Suite struct ClusterEndpointTests {
    static let target = "/clusters?south=40.49&west=-74.26&north=40.92&east=-73.69&zoom=13"

    /// One server for all of it: booting one costs seconds in a debug build.
    @Test func clustersThroughTheStack() throws {
        let app = try TestApplication()
        let client = try app.connect()
        let plain = try client.request("GET", Self.target)
        #expect(plain.status == 200)
        #expect(plain.header("Content-Type") == "application/json; charset=utf-8")
        let json = try #require(JSONSerialization.jsonObject(with: Data(plain.body)) as? [String: Any])
        let clusters = try #require(json["clusters"] as? [[String: Any]])
        #expect(clusters.count == 500 && json["truncated"] as? Bool == true && json["zoom"] as? Int == 13)
        let counts = clusters.compactMap { $0["photoCount"] as? Int }
        #expect(counts == counts.sorted(by: >))
        let etag = try #require(plain.header("ETag"))

        let revalidated = try client.request("GET", Self.target, headers: [("If-None-Match", "\"other\", \(etag)")])
        #expect(revalidated.status == 304 && revalidated.body.isEmpty)
        #expect(revalidated.header("ETag") == etag)

        let compressed = try client.request("GET", Self.target, headers: [("Accept-Encoding", "gzip")])
        #expect(compressed.status == 200 && compressed.header("Content-Encoding") == "gzip")
        #expect(compressed.header("Vary")?.contains("Accept-Encoding") == true)
        let decompressedMatches = try gunzip(compressed.body) == plain.body
        #expect(decompressedMatches)
        // The second time the kept gzip is sent: the same bytes, tag and length.
        let compressedAgain = try client.request("GET", Self.target, headers: [("Accept-Encoding", "gzip")])
        #expect(compressedAgain.body == compressed.body && compressedAgain.header("ETag") == compressed.header("ETag"))
        #expect(compressedAgain.header("Content-Length") == String(compressed.body.count))
        let gzipTag = try #require(compressed.header("ETag"))
        #expect(gzipTag != etag)
        let revalidatedGzip = try client.request(
            "GET", Self.target, headers: [("If-None-Match", gzipTag), ("Accept-Encoding", "gzip")])
        #expect(revalidatedGzip.status == 304 && revalidatedGzip.body.isEmpty && revalidatedGzip.header("ETag") == gzipTag)
        let headGzip = try client.request("HEAD", Self.target, headers: [("Accept-Encoding", "gzip")])
        #expect(headGzip.status == 200 && headGzip.body.isEmpty && headGzip.header("ETag") == gzipTag)
        #expect(headGzip.header("Content-Length") == String(compressed.body.count))

        let head = try client.request("HEAD", Self.target)
        #expect(head.status == 200 && head.body.isEmpty)
        #expect(head.header("Content-Length") == String(plain.body.count) && head.header("ETag") == etag)

        for zoom in ["", "NaN", "1e999", "2.5", "23", "-1"] {
            let response = try client.request("GET", "/clusters?south=40.49&west=-74.26&north=40.92&east=-73.69&zoom=\(zoom)")
            #expect(response.status == 400)
            #expect(response.header("Content-Type") == "application/problem+json")
            let problem = try #require(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
            #expect(problem["status"] as? Int == 400)
            #expect((problem["detail"] as? String)?.contains("'zoom'") == true, "zoom=\(zoom)")
        }
        let missing = try client.request("GET", "/clusters?south=40.49&west=-74.26&north=40.92&east=-73.69")
        #expect(missing.status == 400 && missing.bodyText.contains("zoom"))

        let post = try client.request("POST", Self.target, body: [])
        #expect(post.status == 405 && post.header("Allow")?.contains("GET") == true)
        #expect(try app.connect().request("GET", Self.target).body == plain.body)
    }
}
