import Foundation
import Testing

@Suite struct FavoriteRoutesTests {
    @Test func savingIsIdempotentAndKeepsTheFirstSavedAt() throws {
        let harness = try AccountsHarness()
        let token = try harness.register("collector")
        let created = try harness.send(.put, "/favorites/p42", token: token)
        #expect(created.status == 201)
        #expect(created.json["photoID"] as? String == "p42")
        #expect(created.json["title"] as? String == "Title of p42")
        #expect(created.json["width"] as? Int == 600)
        #expect(created.json["date"] is NSNull)
        #expect(created.json["savedAt"] as? String == "2027-01-15T08:00:00Z")

        #expect(try harness.send(.put, "/favorites/p43", token: token).status == 201)
        harness.clock.advance(by: 3600)
        let again = try harness.send(.put, "/favorites/p42", token: token)
        #expect(again.status == 200)
        #expect(again.json["savedAt"] as? String == "2027-01-15T08:00:00Z")

        let list = try harness.send(.get, "/favorites", token: token)
        #expect(photoIDs(list) == ["p43", "p42"], "re-saving keeps the place in the list")
        #expect(try harness.send(.get, "/users/me", token: token).json["favoriteCount"] as? Int == 2)
    }

    @Test func unknownPhotosAreNotSaved() throws {
        let harness = try AccountsHarness()
        let token = try harness.register("collector")
        let response = try harness.send(.put, "/favorites/no-such-photo", token: token)
        #expect(response.status == 404)
        #expect(response.detail?.contains("no-such-photo") == true)
        #expect(photoIDs(try harness.send(.get, "/favorites", token: token)) == [])
    }

    @Test func usersSeeOnlyTheirOwnFavorites() throws {
        let harness = try AccountsHarness()
        let ann = try harness.register("ann")
        let bob = try harness.register("bob")
        #expect(try harness.send(.put, "/favorites/p1", token: ann).status == 201)
        #expect(try harness.send(.put, "/favorites/p2", token: ann).status == 201)
        #expect(try harness.send(.put, "/favorites/p1", token: bob).status == 201, "each user saves independently")
        #expect(try harness.send(.put, "/favorites/p3", token: bob).status == 201)

        #expect(photoIDs(try harness.send(.get, "/favorites", token: ann)) == ["p2", "p1"])
        #expect(photoIDs(try harness.send(.get, "/favorites", token: bob)) == ["p3", "p1"])
        #expect(try harness.send(.delete, "/favorites/p2", token: bob).status == 404)
        #expect(try harness.send(.delete, "/favorites/p1", token: bob).status == 204)
        #expect(photoIDs(try harness.send(.get, "/favorites", token: ann)) == ["p2", "p1"])
        #expect(photoIDs(try harness.send(.get, "/favorites", token: bob)) == ["p3"])
    }

    @Test func deletingAFavorite() throws {
        let harness = try AccountsHarness()
        let token = try harness.register("pruner")
        #expect(try harness.send(.put, "/favorites/p5", token: token).status == 201)
        #expect(try harness.send(.delete, "/favorites/p5", token: token).status == 204)
        let again = try harness.send(.delete, "/favorites/p5", token: token)
        #expect(again.status == 404)
        #expect(photoIDs(try harness.send(.get, "/favorites", token: token)) == [])
        #expect(try harness.send(.put, "/favorites/p5", token: token).status == 201, "it can be saved again")
    }

    @Test func photosThatLeftTheCatalogAreListedAsMissing() throws {
        let harness = try AccountsHarness()
        let token = try harness.register("archivist")
        #expect(try harness.send(.put, "/favorites/p8", token: token).status == 201)
        #expect(try harness.send(.put, "/favorites/p9", token: token).status == 201)
        harness.photos.withdraw("p8")

        let list = try harness.send(.get, "/favorites", token: token)
        let favorites = try #require(list.json["favorites"] as? [[String: Any]])
        #expect(favorites.count == 2)
        #expect(favorites[0]["title"] as? String == "Title of p9")
        #expect(favorites[0]["missing"] == nil)
        #expect(favorites[1]["photoID"] as? String == "p8")
        #expect(favorites[1]["missing"] as? Bool == true)
        #expect(favorites[1]["savedAt"] as? String == "2027-01-15T08:00:00Z")
        #expect(favorites[1].count == 3)

        #expect(try harness.send(.put, "/favorites/p8", token: token).status == 404, "no new saves of a withdrawn photo")
        #expect(try harness.send(.delete, "/favorites/p8", token: token).status == 204, "but it can be removed")
    }

    @Test(arguments: ["0", "201", "-1", "ten", "", "1.5"])
    func limitOutOfRangeIsRejected(limit: String) throws {
        let harness = try AccountsHarness()
        let token = try harness.register("pager")
        let response = try harness.send(.get, "/favorites", query: [("limit", limit)], token: token)
        #expect(response.status == 400)
        #expect(response.detail?.contains("'limit'") == true, "the problem names limit")
    }

    @Test(arguments: [
        "", "abc", "ZjE6MA", "ZjE6LTE", "ZjI6MTA", "ZjE6MTA=", "ZjE6MTB", "ZjE6MDEw", "ZjE6MTAg", "f1:10",
        String(repeating: "A", count: 100),
    ])
    func malformedCursorsAreRejected(cursor: String) throws {
        let harness = try AccountsHarness()
        let token = try harness.register("pager")
        let response = try harness.send(.get, "/favorites", query: [("cursor", cursor)], token: token)
        #expect(response.status == 400)
        #expect(response.detail?.hasPrefix("cursor") == true)
    }
}

func photoIDs(_ response: TestResponse) -> [String] {
    (response.json["favorites"] as? [[String: Any]] ?? []).compactMap { $0["photoID"] as? String }
}
