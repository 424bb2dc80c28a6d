import Foundation
import Testing
import TestSupport

/// `GET /photos/popular` through the request pipeline: public, PlacedPhotos with
/// `saveCount`, and every bad parameter a 400 naming it.
@Suite struct PopularRoutesTests {
    @Test func threeSaversListAPhotoAsAPlacedPhoto() throws {
        let client = try PipelineApplication.client()
        // A photo no other test saves.
        let photo = try SharedCatalog.catalog().photos[31_337].photoID
        for index in 0..<3 {
            let name = "popular\(index)_\(UInt32.random(in: 0...UInt32.max))"
            let token = try client.registerUser(named: name)
            #expect(try client.requestJSON("PUT", "/favorites/\(photo)", token: token).status == 201)
        }
        // The list may lag the favorites by up to a second.
        var listed: [String: Any]?
        for _ in 0..<30 where listed == nil {
            let response = try client.request("GET", "/photos/popular?days=1&limit=100")
            #expect(response.status == 200 && response.header("ETag") == nil && response.header("Cache-Control") == nil)
            let body = try response.object()
            #expect(body["days"] as? Int == 1)
            listed = (body["photos"] as? [[String: Any]])?.first { $0["photoID"] as? String == photo }
            if listed == nil { usleep(100_000) }
        }
        let entry = try #require(listed)
        #expect(entry["saveCount"] as? Int == 3)
        #expect(entry["locationID"] is String && entry["thumbnailURL"] is String && entry["intersection"] != nil)
        #expect(try client.request("GET", "/photos/\(photo)").status == 200, "/photos/{photoID} still binds the others")
    }

    static let badQueries: [(query: String, parameter: String)] = [
        ("days=0", "days"), ("days=366", "days"), ("days=", "days"), ("days=1.5", "days"), ("days=7&days=8", "days"),
        ("limit=0", "limit"), ("limit=101", "limit"), ("limit=ten", "limit"),
    ]

    @Test(arguments: badQueries) func badParametersAreProblemsNamingThem(query: String, parameter: String) throws {
        let client = try PipelineApplication.client()
        let response = try client.request("GET", "/photos/popular?\(query)")
        #expect(response.status == 400, "\(query)")
        #expect(response.bodyText.contains("'\(parameter)'"), "\(query)")
    }
}
