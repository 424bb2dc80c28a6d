import API
import Catalog
import Foundation
import HTTPServer
import Testing
import TestSupport

/// Subject topics (`/topics`, the `topic` filter) and "what am I facing" (`/nearby`'s
/// `heading` and `fov`), against brute force over `Data/`.
@Suite struct DiscoveryTests {
    /// The whole application, never listening: every route through the request pipeline.
    static let application: Result<TestApplication, any Error> = Result { try TestApplication(listening: false) }

    static func client() throws -> InMemoryHTTPClient {
        try application.get().inMemoryClient()
    }
    @Test func topicsAndTheirCountsAreThoseOfTheData() throws {
        let catalog = try CatalogFixture.load().catalog
        let oracle = try TopicOracle.load()
        #expect(oracle.topics.count == 1049)
        #expect(catalog.topicIndex.topics.count == oracle.topics.count)
        for (topic, expected) in zip(catalog.topicIndex.topics, oracle.topics) {
            #expect(topic.name == expected.name && topic.photoCount == expected.photoCount, "\(expected)")
            #expect(topic.locationCount == expected.locationCount, "\(expected)")
        }
        // The photos with any topic: 37,999 of them.
        let withTopic = catalog.photos.indices.filter { !catalog.topicIndex.topics(ofPhoto: $0).isEmpty }
        #expect(withTopic.count == 37_999)
        for photo in stride(from: 0, to: catalog.photos.count, by: 97) {
            for topic in catalog.topicIndex.topics(ofPhoto: photo) {
                #expect(oracle.photo(catalog.photos[photo].photoID, has: topic))
            }
        }
    }

    @Test func theTopicsBodyListsEveryTopicInOrder() throws {
        let client = try Self.client()
        let response = try client.request("GET", "/topics")
        #expect(response.status == 200)
        let topics = try #require(try response.object()["topics"] as? [[String: Any]])
        let oracle = try TopicOracle.load()
        #expect(topics.count == oracle.topics.count)
        for (topic, expected) in zip(topics, oracle.topics) {
            #expect(topic["name"] as? String == expected.name)
            #expect(topic["photoCount"] as? Int == expected.photoCount && topic["locationCount"] as? Int == expected.locationCount)
        }
        let etag = try #require(response.header("ETag"))
        #expect(try client.request("GET", "/topics", headers: [("If-None-Match", etag)]).status == 304)
    }

    /// A topic in any letter case is the same filter; each endpoint's oracle tests check
    /// what it keeps.
    @Test(arguments: [
        "/nearby?lat=40.7306&lon=-73.9866&photos=3", "/region?south=40.70&west=-74.02&north=40.75&east=-73.97",
        "/clusters?south=40.5&west=-74.3&north=41&east=-73.6&zoom=11", "/search?q=street",
        "/locations/40.802963,-73.963849",
    ])
    func aTopicInAnyCaseIsOneFilter(target: String) throws {
        let client = try Self.client()
        let canonical = try client.request("GET", target + "&topic=Elevated%20railroads".replacingFirstAmpersand(in: target))
        #expect(canonical.status == 200, "\(target): \(canonical.bodyText.prefix(200))")
        for spelling in ["elevated%20railroads", "ELEVATED%20RAILROADS", "eLeVaTeD+rAiLrOaDs"] {
            let other = try client.request("GET", target + "&topic=\(spelling)".replacingFirstAmpersand(in: target))
            #expect(other.body == canonical.body && other.header("ETag") == canonical.header("ETag"), "\(target) \(spelling)")
        }
        let unfiltered = try client.request("GET", target)
        #expect(unfiltered.body != canonical.body, "\(target): the topic filters")
    }

    /// Each case: a target and the parameter its 400 must name.
    static let badQueries: [(target: String, parameter: String)] = [
        ("/nearby?lat=40.73&lon=-73.98&topic=", "topic"),
        ("/nearby?lat=40.73&lon=-73.98&topic=no%20such%20topic", "topic"),
        ("/nearby?lat=40.73&lon=-73.98&topic=parks&topic=hotels", "topic"),
        ("/region?south=40.70&west=-74.02&north=40.75&east=-73.97&topic=", "topic"),
        ("/clusters?south=40.5&west=-74.3&north=41&east=-73.6&zoom=11&topic=nope", "topic"),
        ("/search?q=street&topic=%20parks", "topic"),
        ("/tours?lat=40.73&lon=-73.98&topic=parkss", "topic"),
        ("/locations/40.802963,-73.963849?topic=", "topic"),
        ("/nearby?lat=40.73&lon=-73.98&heading=360", "heading"),
        ("/nearby?lat=40.73&lon=-73.98&heading=-0.1", "heading"),
        ("/nearby?lat=40.73&lon=-73.98&heading=", "heading"),
        ("/nearby?lat=40.73&lon=-73.98&heading=north", "heading"),
        ("/nearby?lat=40.73&lon=-73.98&heading=nan", "heading"),
        ("/nearby?lat=40.73&lon=-73.98&heading=10&heading=20", "heading"),
        ("/nearby?lat=40.73&lon=-73.98&heading=10&fov=0", "fov"),
        ("/nearby?lat=40.73&lon=-73.98&heading=10&fov=360.5", "fov"),
        ("/nearby?lat=40.73&lon=-73.98&heading=10&fov=-30", "fov"),
        ("/nearby?lat=40.73&lon=-73.98&heading=10&fov=", "fov"),
        ("/nearby?lat=40.73&lon=-73.98&fov=60", "fov"),
    ]

    @Test(arguments: badQueries) func badDiscoveryParametersAreProblemsNamingThem(target: String, parameter: String) throws {
        let client = try Self.client()
        let response = try client.request("GET", target)
        #expect(response.status == 400, "\(target)")
        #expect(response.problemDetail.contains("'\(parameter)'"), "\(target)")
    }

    /// The cone against brute force over every location, on seeded random points,
    /// headings (the 0/360 wrap included), fields of view, limits and radii.
    @Test func theConeMatchesBruteForce() throws {
        let fixture = try CatalogFixture.load()
        var random = SeededGenerator(seed: 31)
        let headings = [0, 0.05, 359.95, 90, 180, 270, 359.999]
        for round in 0..<300 {
            let latitude = Double.random(in: 40.45...40.96, using: &random)
            let longitude = Double.random(in: -74.3...(-73.65), using: &random)
            let heading = round % 3 == 0 ? headings.randomElement(using: &random)! : Double.random(in: 0..<360, using: &random)
            let fieldOfView = [1, 10, 60, 90, 179.9, 180, 300, 360].randomElement(using: &random)!
            let query = NearbyQuery(
                latitude: latitude, longitude: longitude, limit: [1, 10, 100].randomElement(using: &random)!,
                radius: [nil, 500, 5_000].randomElement(using: &random)!,
                filter: round % 4 == 0 ? CatalogQueryTests.filters.randomElement(using: &random)! : PhotoFilter(),
                cone: ViewCone(heading: heading, fieldOfView: fieldOfView))
            let found = fixture.catalog.nearby(query)
            let expected = fixture.oracle.nearby(query)
            #expect(found.map { fixture.catalog.locations[$0.location].locationID } == expected.map(\.found.id), "\(query)")
            #expect(found.map(\.photoCount) == expected.map(\.found.photoCount), "\(query)")
        }
    }

    /// Locations within 15 m are kept whatever the heading; the bearing of each location
    /// is the brute-force one, rounded to a tenth, and 0 at the point itself.
    @Test func bearingsAndTheNearbyRule() throws {
        let fixture = try CatalogFixture.load()
        let client = try Self.client()
        let location = fixture.catalog.locations[4321]
        for heading in ["0", "123.4", "359.9"] {
            let response = try client.request(
                "GET", "/nearby?lat=\(location.latitude)&lon=\(location.longitude)&limit=20&heading=\(heading)&fov=1")
            let json = try response.object()
            let locations = try #require(json["locations"] as? [[String: Any]])
            let first = try #require(locations.first)
            #expect(first["locationID"] as? String == location.locationID && first["bearing"] as? Double == 0, "at the point")
            for entry in locations {
                let other = try #require(fixture.oracle.locations.first { $0.id == entry["locationID"] as? String })
                let bearing = Oracle.bearing(location.latitude, location.longitude, other.latitude, other.longitude)
                let tenths = (bearing * 10).rounded()
                #expect(entry["bearing"] as? Double == (tenths == 3600 ? 0 : tenths / 10), "\(other.id)")
            }
        }
        let plain = try client.request("GET", "/nearby?lat=40.73&lon=-73.98").object()
        #expect((plain["locations"] as? [[String: Any]])?.allSatisfy { $0["bearing"] == nil } == true, "no heading, no bearing")
    }
}

extension String {
    /// `parameter` with its leading `&` made a `?` when `target` has no query yet.
    fileprivate func replacingFirstAmpersand(in target: String) -> String {
        target.contains("?") ? self : "?" + dropFirst()
    }
}
