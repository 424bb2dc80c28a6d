import Foundation
import PastNYCClient
import Testing

extension EndToEndTests {
    /// Favorites, the tour through them, recently viewed photos and the reset.
    @Suite struct FavoritesAndRecents {
        @Test func favorites() async throws {
            let user = try await TestUser.register("favorites")
            let ids = try await photoIDsNearUnionSquare(count: 2)

            let first = try await user.client.saveFavorite(path: .init(photoID: ids[0])).created.body.json
            #expect(first.value1.photoID == ids[0])
            _ = try await user.client.saveFavorite(path: .init(photoID: ids[1])).created
            let again = try await user.client.saveFavorite(path: .init(photoID: ids[0])).ok.body.json
            #expect(again.value2.savedAt == first.value2.savedAt)
            _ = try await user.client.saveFavorite(path: .init(photoID: "no-such-photo")).notFound

            let page = try await user.client.listFavorites(query: .init(limit: 1)).ok.body.json
            guard case .Favorite(let newest) = try #require(page.favorites.first) else {
                Issue.record("the newest favorite is missing from the catalog")
                return
            }
            #expect(newest.value1.photoID == ids[1])
            let cursor = try #require(page.nextCursor)
            let rest = try await user.client.listFavorites(query: .init(limit: 1, cursor: cursor)).ok.body.json
            #expect(rest.favorites.count == 1)
            _ = try await user.client.listFavorites(query: .init(cursor: "not a cursor")).badRequest
            #expect(try await user.client.getMe().ok.body.json.favoriteCount == 2)

            let tour = try await user.client.getFavoritesTour(query: .init(lat: unionSquare.latitude, lon: unionSquare.longitude))
                .ok.body.json
            #expect(Set(tour.stops.flatMap { $0.value2.photos.map(\.photoID) }) == Set(ids))
            _ = try await user.client.getFavoritesTour(query: .init(lat: 200, lon: unionSquare.longitude)).badRequest

            _ = try await user.client.removeFavorite(path: .init(photoID: ids[0])).noContent
            _ = try await user.client.removeFavorite(path: .init(photoID: ids[0])).notFound
        }

        @Test func recentsAndReset() async throws {
            let user = try await TestUser.register("recents")
            let ids = try await photoIDsNearUnionSquare(count: 2)

            for id in ids {
                let recent = try await user.client.recordView(path: .init(photoID: id)).ok.body.json
                #expect(recent.value1.photoID == id)
            }
            _ = try await user.client.recordView(path: .init(photoID: "no-such-photo")).notFound
            let recents = try await user.client.listRecents().ok.body.json.recents
            #expect(recents.map(\.value1.photoID) == ids.reversed())
            _ = try await user.client.listRecents(query: .init(limit: 0)).badRequest

            _ = try await user.client.clearRecents().noContent
            #expect(try await user.client.listRecents().ok.body.json.recents.isEmpty)

            _ = try await user.client.saveFavorite(path: .init(photoID: ids[0])).created
            _ = try await user.client.recordView(path: .init(photoID: ids[0])).ok
            _ = try await user.client.eraseMyData().noContent
            #expect(try await user.client.listFavorites().ok.body.json.favorites.isEmpty)
            #expect(try await user.client.listRecents().ok.body.json.recents.isEmpty)
            _ = try await user.client.getMe().ok
        }
    }
}
