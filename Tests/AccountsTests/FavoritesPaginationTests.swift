import Foundation
import Testing
import TestSupport

@Suite struct FavoritesPaginationTests {
    @Test func pagesHaveNoDuplicatesOrGapsWhileFavoritesAreAdded() throws {
        let harness = try AccountsHarness()
        let token = try harness.register("hoarder")
        let original = (0..<230).map { "p\($0)" }
        for photo in original {
            #expect(try harness.send(.put, "/favorites/\(photo)", token: token).status == 201)
        }

        var seen: [String] = []
        var cursor: String?
        var added = 230
        var pages = 0
        repeat {
            var query = [("limit", "60")]
            if let cursor { query.append(("cursor", cursor)) }
            let page = try harness.send(.get, "/favorites", query: query, token: token)
            #expect(page.status == 200)
            seen += photoIDs(page)
            cursor = page.json["nextCursor"] as? String
            #expect((page.json["nextCursor"] != nil), "nextCursor is always present, null on the last page")
            // Between pages, the user keeps saving (and re-saving) photos.
            for _ in 0..<7 {
                #expect(try harness.send(.put, "/favorites/p\(added)", token: token).status == 201)
                added += 1
            }
            #expect(try harness.send(.put, "/favorites/p3", token: token).status == 200)
            pages += 1
        } while cursor != nil && pages < 10

        #expect(pages == 4)
        #expect(seen == original.reversed(), "every favorite from the start, newest first, once each")
    }

    @Test func theDefaultPageHoldsFiftyAndTheMaximumTwoHundred() throws {
        let harness = try AccountsHarness()
        let token = try harness.register("hoarder")
        for index in 0..<201 {
            #expect(try harness.send(.put, "/favorites/p\(index)", token: token).status == 201)
        }
        let first = try harness.send(.get, "/favorites", token: token)
        #expect(photoIDs(first).count == 50)
        #expect(photoIDs(first).first == "p200")

        let big = try harness.send(.get, "/favorites", query: [("limit", "200")], token: token)
        #expect(photoIDs(big) == (1...200).reversed().map { "p\($0)" })
        let cursor = try #require(big.json["nextCursor"] as? String)
        let last = try harness.send(.get, "/favorites", query: [("limit", "200"), ("cursor", cursor)], token: token)
        #expect(photoIDs(last) == ["p0"])
        #expect(last.json["nextCursor"] is NSNull)
    }

    @Test func aDeletedFavoriteDoesNotBreakACursor() throws {
        let harness = try AccountsHarness()
        let token = try harness.register("hoarder")
        for index in 0..<6 {
            #expect(try harness.send(.put, "/favorites/p\(index)", token: token).status == 201)
        }
        let first = try harness.send(.get, "/favorites", query: [("limit", "3")], token: token)
        #expect(photoIDs(first) == ["p5", "p4", "p3"])
        #expect(try harness.send(.delete, "/favorites/p3", token: token).status == 204)
        #expect(try harness.send(.delete, "/favorites/p2", token: token).status == 204)
        let cursor = try #require(first.json["nextCursor"] as? String)
        let second = try harness.send(.get, "/favorites", query: [("limit", "3"), ("cursor", cursor)], token: token)
        #expect(photoIDs(second) == ["p1", "p0"])
    }

    /// `ids` against the brute-force answer on this store (SQLite, or PostgreSQL in CI's
    /// PostgreSQL suites), for lists shorter than the user's favorites (each photo looked
    /// up) and as long or longer (the user's favorites read whole), while the user saves
    /// and removes photos; another user's favorites never show.
    @Test func idsAnswerTheSavedOnesOnBothLookupPaths() throws {
        let harness = try AccountsHarness()
        let token = try harness.register("hearts")
        let other = try harness.register("neighbour")
        #expect(try harness.send(.put, "/favorites/p1", token: other).status == 201)
        var random = SeededGenerator(seed: 3034)
        var saved: [String] = []
        for round in 0..<40 {
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                let photo = "p\(Int.random(in: 0..<120, using: &random))"
                if let index = saved.firstIndex(of: photo), Bool.random(using: &random) {
                    #expect(try harness.send(.delete, "/favorites/\(photo)", token: token).status == 204)
                    saved.remove(at: index)
                } else if !saved.contains(photo) {
                    #expect(try harness.send(.put, "/favorites/\(photo)", token: token).status == 201)
                    saved.append(photo)
                }
            }
            let count = Int.random(in: 1...100, using: &random)
            let ids = (0..<count).map { _ in "p\(Int.random(in: 0..<120, using: &random))" }
            let response = try harness.send(.get, "/favorites", query: [("ids", ids.joined(separator: ","))], token: token)
            #expect(response.status == 200)
            #expect(photoIDs(response) == saved.reversed().filter { ids.contains($0) }, "round \(round), \(saved.count) saved")
        }
    }
}

