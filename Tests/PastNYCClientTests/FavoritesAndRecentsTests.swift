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

            // A favorite carries its photo's location, as the photo itself does.
            let photo = try await makeClient().getPhoto(path: .init(photoID: ids[0])).ok.body.json
            #expect(!first.value1.locationID.isEmpty)
            #expect(first.value1.locationID == photo.value2.locationID)
            #expect(first.value1.latitude == photo.value2.latitude && first.value1.longitude == photo.value2.longitude)
            #expect(first.value1.borough == photo.value2.borough)
            #expect(newest.value1.locationID.contains(","))

            // One favorite, and the favorites among some photos.
            let shown = try await user.client.getFavorite(path: .init(photoID: ids[0])).ok
            #expect(shown.headers.cacheControl == "no-store")
            guard case .Favorite(let favorite) = try shown.body.json else {
                Issue.record("the favorite is missing from the catalog")
                return
            }
            #expect(favorite == first)
            _ = try await user.client.getFavorite(path: .init(photoID: "no-such-photo")).notFound
            let anonymous = try await makeClient().getFavorite(path: .init(photoID: ids[0])).unauthorized
            #expect(anonymous.headers.cacheControl == "no-store")

            let among = try await user.client.listFavorites(query: .init(ids: [ids[0], "no-such-photo", ids[1], ids[0]])).ok.body.json
            #expect(among.nextCursor == nil)
            #expect(among.favorites.map(photoID) == [ids[1], ids[0]])
            let none = try await user.client.listFavorites(query: .init(ids: ["no-such-photo"])).ok.body.json
            #expect(none.favorites.isEmpty && none.nextCursor == nil)
            let empty = try await user.client.listFavorites(query: .init(ids: [ids[0], ""])).badRequest
            #expect(try empty.body.applicationProblemJson.detail.contains("ids"))
            let paged = try await user.client.listFavorites(query: .init(limit: 1, ids: [ids[0]])).badRequest
            #expect(try paged.body.applicationProblemJson.detail.contains("limit"))

            let tour = try await user.client.getFavoritesTour(query: .init(lat: unionSquare.latitude, lon: unionSquare.longitude))
                .ok.body.json
            #expect(Set(tour.stops.flatMap { $0.value2.photos.map(\.photoID) }) == Set(ids))
            _ = try await user.client.getFavoritesTour(query: .init(lat: 200, lon: unionSquare.longitude)).badRequest

            _ = try await user.client.removeFavorite(path: .init(photoID: ids[0])).noContent
            _ = try await user.client.removeFavorite(path: .init(photoID: ids[0])).notFound
            _ = try await user.client.getFavorite(path: .init(photoID: ids[0])).notFound
            let left = try await user.client.listFavorites(query: .init(ids: [ids[0], ids[1]])).ok.body.json
            #expect(left.favorites.map(photoID) == [ids[1]])
        }

        /// The photo ID of a favorite, whether its photo is in the catalog or not.
        private func photoID(_ favorite: Components.Schemas.AnyFavorite) -> String {
            switch favorite {
            case .Favorite(let present): present.value1.photoID
            case .MissingFavorite(let missing): missing.photoID
            }
        }

        @Test func recentsAndReset() async throws {
            let user = try await TestUser.register("recents")
            let ids = try await photoIDsNearUnionSquare(count: 2)

            for id in ids {
                let recorded = try await user.client.recordView(path: .init(photoID: id)).ok
                #expect(recorded.headers.cacheControl == "no-store")
                let recent = try recorded.body.json
                #expect(recent.value1.photoID == id)
                #expect(!recent.value1.locationID.isEmpty)
            }
            _ = try await user.client.recordView(path: .init(photoID: "no-such-photo")).notFound
            let recents = try await user.client.listRecents().ok.body.json.recents
            #expect(recents.map(\.value1.photoID) == ids.reversed())
            let photo = try await makeClient().getPhoto(path: .init(photoID: ids[0])).ok.body.json
            #expect(recents.last?.value1.locationID == photo.value2.locationID)
            #expect(recents.last?.value1.borough == photo.value2.borough)
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
