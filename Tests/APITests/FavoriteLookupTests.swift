import Foundation
import Testing
import TestSupport

/// Favorites and recents as a list screen reads them: PlacedPhotos whose place is the
/// catalog's, the hearts of a whole list in one call (`GET /favorites?ids=`), and one
/// favorite (`GET /favorites/{photoID}`).
@Suite struct FavoriteLookupTests {
    struct SignedIn {
        let client: InMemoryHTTPClient
        let token: String

        init() throws {
            client = try PipelineApplication.client()
            let name = "hearts_\(UInt32.random(in: 0...UInt32.max))"
            token = try client.registerUser(named: name)
        }

        func send(_ method: String, _ target: String) throws -> RawHTTPClient.Response {
            try client.requestJSON(method, target, token: token)
        }
    }

    /// The place members of a PlacedPhoto against the catalog's location of the photo.
    static func expectPlace(_ item: [String: Any]) throws {
        let catalog = try SharedCatalog.catalog()
        let photoID = try #require(item["photoID"] as? String)
        let photo = try #require(catalog.photoIndex(photoID: photoID))
        let location = catalog.locations[catalog.photos[photo].locationIndex]
        #expect(item["locationID"] as? String == location.locationID, "\(photoID)")
        #expect(item["latitude"] as? Double == location.latitude && item["longitude"] as? Double == location.longitude)
        #expect(item["borough"] as? String == location.borough?.rawValue && (location.borough != nil || item["borough"] is NSNull))
        #expect(item["intersection"] as? String == location.intersection && (location.intersection != nil || item["intersection"] is NSNull))
        #expect(item["thumbnailURL"] as? String == catalog.photos[photo].thumbnailURL)
    }

    @Test func favoritesAndRecentsCarryTheirPhotosPlace() throws {
        let user = try SignedIn()
        let catalog = try SharedCatalog.catalog()
        var random = SeededGenerator(seed: 32)
        let ids = (0..<40).map { _ in catalog.photos[Int.random(in: 0..<catalog.photos.count, using: &random)].photoID }
        for id in ids {
            let saved = try user.send("PUT", "/favorites/\(id)")
            #expect(saved.status == 201 || saved.status == 200)
            try Self.expectPlace(try saved.object())
            let viewed = try user.send("PUT", "/recents/\(id)")
            try Self.expectPlace(try viewed.object())
        }
        let favorites = try #require(try user.send("GET", "/favorites?limit=200").object()["favorites"] as? [[String: Any]])
        let recents = try #require(try user.send("GET", "/recents?limit=100").object()["recents"] as? [[String: Any]])
        #expect(favorites.count == Set(ids).count && recents.count == Set(ids).count)
        for item in favorites + recents { try Self.expectPlace(item) }
        let one = try user.send("GET", "/favorites/\(ids[0])")
        #expect(one.status == 200)
        try Self.expectPlace(try one.object())
        #expect(try one.object()["savedAt"] is String)
    }

    /// Random `ids` lists (saved, unsaved, unknown, repeated) against the saved set,
    /// newest saved first: lists shorter than the user's 78 favorites (each photo looked
    /// up) and longer ones (the user's favorites read whole).
    @Test func idsAnswerExactlyTheSavedOnesNewestFirst() throws {
        let user = try SignedIn()
        let catalog = try SharedCatalog.catalog()
        var random = SeededGenerator(seed: 33)
        let pool = (0..<150).map { _ in catalog.photos[Int.random(in: 0..<catalog.photos.count, using: &random)].photoID }
        var savedOrder: [String] = []
        for id in pool.prefix(80) where !savedOrder.contains(id) {
            #expect(try user.send("PUT", "/favorites/\(id)").status == 201)
            savedOrder.append(id)
        }
        let removed = savedOrder.remove(at: 10)
        #expect(try user.send("DELETE", "/favorites/\(removed)").status == 204)
        for round in 0..<60 {
            var ids = Array(pool.shuffled(using: &random).prefix(Int.random(in: 1...98, using: &random)))
            if round % 3 == 0 { ids.append("no-such-photo-\(round)") }
            if round % 4 == 0, let first = ids.first { ids.append(first) }
            let response = try user.send("GET", "/favorites?ids=\(ids.joined(separator: ","))")
            #expect(response.status == 200)
            let json = try response.object()
            #expect(json["nextCursor"] is NSNull)
            let favorites = try #require(json["favorites"] as? [[String: Any]])
            let expected = savedOrder.reversed().filter { ids.contains($0) }
            #expect(favorites.compactMap { $0["photoID"] as? String } == expected, "round \(round)")
        }
        #expect(try user.send("GET", "/favorites/\(removed)").status == 404)
        #expect(try user.send("GET", "/favorites/no-such-photo").status == 404)
    }

    @Test func anotherUsersFavoriteIsNotFound() throws {
        let ann = try SignedIn()
        let bob = try SignedIn()
        #expect(try ann.send("PUT", "/favorites/705740f-a").status == 201)
        #expect(try bob.send("GET", "/favorites/705740f-a").status == 404)
        let hearts = try bob.send("GET", "/favorites?ids=705740f-a").object()
        #expect((hearts["favorites"] as? [Any])?.isEmpty == true)
    }

    static let hundredAndOne = (0...100).map { "p\($0)" }.joined(separator: ",")
    static let hundredWithRepeats = ((0..<100).map { "p\($0)" } + ["p0", "p99"]).joined(separator: ",")

    /// Each case: a query and the parameter the 400 must name (nil: a 200).
    static let queries: [(query: String, parameter: String?)] = [
        ("ids=", "ids"), ("ids=,", "ids"), ("ids=a,", "ids"), ("ids=,a", "ids"), ("ids=a,,b", "ids"),
        ("ids=\(hundredAndOne)", "ids"), ("ids=a&ids=b", "ids"), ("ids=a&limit=5", "limit"), ("ids=a&cursor=x", "cursor"),
        ("limit=5&limit=6", "limit"), ("limit=0", "limit"), ("limit=201", "limit"), ("limit=", "limit"), ("limit=2.0", "limit"),
        ("cursor=", "cursor"), ("cursor=nope", "cursor"),
        ("ids=\(hundredWithRepeats)", nil), ("ids=a%2Cb", nil), ("ids=%20a", nil), ("limit=200", nil),
    ]

    @Test(arguments: queries) func badListQueriesAreProblemsNamingTheParameter(query: String, parameter: String?) throws {
        let user = try SignedIn()
        let response = try user.send("GET", "/favorites?\(query)")
        guard let parameter else {
            #expect(response.status == 200, "\(query): \(response.bodyText)")
            return
        }
        #expect(response.status == 400, "\(query)")
        #expect(response.header("Content-Type") == "application/problem+json")
        let detail = response.problemDetail
        #expect(detail.split { !$0.isLetter && !$0.isNumber }.contains(Substring(parameter)), "\(query): \(detail)")
    }

    @Test func theTokenIsCheckedBeforeTheQuery() throws {
        let client = try PipelineApplication.client()
        #expect(try client.request("GET", "/favorites?ids=").status == 401)
        #expect(try client.request("GET", "/favorites/705740f-a").status == 401)
    }
}
