import API
import Catalog
import Foundation
import HTTPServer
import Testing
import TestSupport

@Suite struct ClusterRoutesTests {
    static let router: Result<Router, any Error> = Result {
        let routes = ClusterRoutes(catalog: try ClusterFixture.load().catalog)
        var router = Router()
        ClusterRoutes.register(in: &router) { routes }
        return router
    }

    /// A GET of `/clusters` through the server's request pipeline, without a socket.
    static func get(_ query: [(String, String)]) throws -> RawHTTPClient.Response {
        try InMemoryHTTPClient(router: router.get()).get("/clusters", query: query)
    }

    static let box = [("south", "40.49"), ("west", "-74.26"), ("north", "40.92"), ("east", "-73.69")]

    /// Each case: a query and the parameter its 400 must name.
    static let badRequests: [(query: [(String, String)], parameter: String)] = [
        (box, "zoom"),
        (box + [("zoom", "")], "zoom"),
        (box + [("zoom", "NaN")], "zoom"),
        (box + [("zoom", "inf")], "zoom"),
        (box + [("zoom", "1e999")], "zoom"),
        (box + [("zoom", "1e1")], "zoom"),
        (box + [("zoom", "12.5")], "zoom"),
        (box + [("zoom", "12.0")], "zoom"),
        (box + [("zoom", "0x0C")], "zoom"),
        (box + [("zoom", "-1")], "zoom"),
        (box + [("zoom", "23")], "zoom"),
        (box + [("zoom", "99999999999999999999999")], "zoom"),
        (box + [("zoom", "٤")], "zoom"),
        (box + [("zoom", "3"), ("zoom", "4")], "zoom"),
        ([("west", "-74"), ("north", "41"), ("east", "-73"), ("zoom", "10")], "south"),
        ([("south", "40"), ("north", "41"), ("east", "-73"), ("zoom", "10")], "west"),
        ([("south", "40"), ("west", "-74"), ("east", "-73"), ("zoom", "10")], "north"),
        ([("south", "40"), ("west", "-74"), ("north", "41"), ("zoom", "10")], "east"),
        ([("south", "41"), ("west", "-74"), ("north", "40"), ("east", "-73"), ("zoom", "10")], "south"),
        ([("south", "NaN"), ("west", "-74"), ("north", "41"), ("east", "-73"), ("zoom", "10")], "south"),
        ([("south", "40"), ("west", "-180.5"), ("north", "41"), ("east", "-73"), ("zoom", "10")], "west"),
        ([("south", "40"), ("west", "-74"), ("north", "90.01"), ("east", "-73"), ("zoom", "10")], "north"),
        ([("south", "40"), ("west", "-74"), ("north", "41"), ("east", "1e999"), ("zoom", "10")], "east"),
        (box + [("zoom", "10"), ("limit", "0")], "limit"),
        (box + [("zoom", "10"), ("limit", "5001")], "limit"),
        (box + [("zoom", "10"), ("limit", "2.5")], "limit"),
        (box + [("zoom", "10"), ("from", "1950"), ("to", "1900")], "from"),
        (box + [("zoom", "10"), ("to", "soon")], "to"),
        (box + [("zoom", "10"), ("borough", "Hoboken")], "borough"),
    ]

    @Test(arguments: badRequests.indices)
    func badParametersAre400sNamingThem(_ index: Int) throws {
        let (query, parameter) = Self.badRequests[index]
        let response = try Self.get(query)
        #expect(response.status == 400 && response.header("Content-Type") == "application/problem+json")
        #expect(response.problemDetail.contains("'\(parameter)'"), "\(query): \(response.problemDetail)")
    }

    /// The JSON of random queries, parsed, member for member as the oracle has it.
    @Test func responsesEqualTheOracle() throws {
        let shared = try ClusterFixture.load()
        var generator = SeededGenerator(seed: 0xC105_0150)
        for _ in 0..<25 {
            let query = ClusterOracle.Query.random(using: &generator, catalog: shared.catalog)
            var parameters = [
                ("south", "\(query.south)"), ("west", "\(query.west)"), ("north", "\(query.north)"),
                ("east", "\(query.east)"), ("zoom", "\(query.zoom)"),
            ]
            if query.limit != 500 || Bool.random(using: &generator) { parameters.append(("limit", "\(query.limit)")) }
            if let from = query.fromYear { parameters.append(("from", "\(from)")) }
            if let to = query.toYear { parameters.append(("to", "\(to)")) }
            if let borough = query.borough { parameters.append(("borough", borough.rawValue.uppercased())) }
            if let topic = query.topic { parameters.append(("topic", try TopicOracle.load().topics[topic].name.lowercased())) }
            let response = try Self.get(parameters)
            #expect(response.status == 200 && response.header("Content-Type") == HTTPResponse.jsonContentType)
            let body = try response.object()
            let expected = shared.oracle.clusters(query)
            #expect(Set(body.keys) == ["zoom", "clusters", "total", "truncated"])
            #expect(body["zoom"] as? Int == query.zoom)
            #expect(body["total"] as? Int == expected.total, "\(query)")
            #expect(body["truncated"] as? Bool == (expected.total > query.limit), "\(query)")
            let clusters = try #require(body["clusters"] as? [[String: Any]])
            #expect(clusters.count == expected.clusters.count, "\(query)")
            for (json, cluster) in zip(clusters, expected.clusters) {
                #expect(Self.parse(json)?.matches(cluster) == true, "\(query): \(json) is not \(cluster)")
            }
        }
    }

    static func parse(_ json: [String: Any]) -> ClusterOracle.Expected? {
        guard
            Set(json.keys) == ["latitude", "longitude", "locationCount", "photoCount", "bbox", "locationID", "thumbnailURL"],
            let bbox = json["bbox"] as? [String: Double], Set(bbox.keys) == ["south", "west", "north", "east"],
            let latitude = json["latitude"] as? Double, let longitude = json["longitude"] as? Double,
            let locationCount = json["locationCount"] as? Int, let photoCount = json["photoCount"] as? Int,
            let thumbnailURL = json["thumbnailURL"] as? String
        else { return nil }
        let locationID = json["locationID"] as? String
        guard locationID != nil || json["locationID"] is NSNull else { return nil }
        return ClusterOracle.Expected(
            latitude: latitude, longitude: longitude, locationCount: locationCount, photoCount: photoCount,
            south: bbox["south"]!, west: bbox["west"]!, north: bbox["north"]!, east: bbox["east"]!,
            locationID: locationID, thumbnailURL: thumbnailURL)
    }

    /// One tag for every spelling of a query; another for another zoom or filter.
    @Test func etagFollowsTheNormalizedQuery() throws {
        let tag = try Self.get(Self.box + [("zoom", "11")]).header("ETag")
        let respelled = try Self.get(
            [("south", "4.049e1"), ("west", "-74.260"), ("north", "40.92"), ("east", "-73.69"), ("zoom", "+11"), ("limit", "500")])
        #expect(tag != nil && respelled.header("ETag") == tag)
        #expect(try Self.get(Self.box + [("zoom", "12")]).header("ETag") != tag)
        #expect(try Self.get(Self.box + [("zoom", "11"), ("limit", "3")]).header("ETag") != tag)
        #expect(try Self.get(Self.box + [("zoom", "11"), ("borough", "Bronx")]).header("ETag") != tag)
    }
}
