import Foundation
import PastNYCClient
import Testing

extension EndToEndTests {
    /// The sync feed: the whole state, then only what changed, held while nothing does.
    @Suite struct Sync {
        @Test func wholeStateThenChanges() async throws {
            let user = try await TestUser.register("syncer")
            let ids = try await photoIDsNearUnionSquare(count: 2)
            _ = try await user.client.saveFavorite(path: .init(photoID: ids[0])).created

            let whole = try await user.client.sync().ok
            #expect(whole.headers.cacheControl == "no-store")
            let state = try whole.body.json
            #expect(!state.more)
            #expect(state.changes.contains { $0._type == .profile && $0.user?.username == user.username })
            let saved = try #require(state.changes.first { $0._type == .favorite })
            #expect(saved.photoID == ids[0] && !saved.deleted && saved.favorite != nil)

            _ = try await user.client.saveFavorite(path: .init(photoID: ids[1])).created
            _ = try await user.client.removeFavorite(path: .init(photoID: ids[0])).noContent
            let changed = try await user.client.sync(query: .init(since: state.next, limit: 10)).ok.body.json
            let favorites = changed.changes.filter { $0._type == .favorite }
            #expect(favorites.map(\.photoID) == [ids[1], ids[0]])
            #expect(favorites.map(\.deleted) == [false, true])
            #expect(favorites.last?.favorite == nil)

            // Nothing changed since: a wait of one second ends with no changes.
            let quiet = try await user.client.sync(query: .init(since: changed.next, wait: 1)).ok.body.json
            #expect(quiet.changes.isEmpty && !quiet.more)

            _ = try await user.client.sync(query: .init(since: "not a token")).badRequest
            let stranger = try await TestUser.register("stranger")
            _ = try await stranger.client.sync(query: .init(since: changed.next)).badRequest
            _ = try await makeClient().sync().unauthorized
        }
    }
}
