import Accounts
import Dispatch
import Foundation
import HTTPServer
import Synchronization
import Testing
import TestSupport
import UserData

/// The quota of favorites one user keeps: at its real number through the store's API
/// (on the store the tests run on, PostgreSQL's `save_favorite` included), and its
/// answer over HTTP with the quota lowered.
@Suite struct FavoriteQuotaTests {
    @Test func theTenThousandAndFirstNewFavoriteIsRefusedWhileSavedOnesAreStillAnswered() throws {
        let harness = try AccountsHarness()
        let accounts = harness.accounts
        let token = try harness.register("collector")
        let user = try accounts.sessions.authenticate(token: token)
        #expect(accounts.favorites.maximum == 10_000)
        // Eight writers at once, each answered through its completion, so the saves share
        // commits; each on a thread of its own, since a save on PostgreSQL waits for its
        // round trip on the calling thread (a pool of as many threads as cores would leave
        // two writers on this machine).
        let saved = DispatchGroup()
        let failures = Mutex<[String]>([])
        for writer in 0..<8 {
            saved.enter()
            Thread.detachNewThread {
                for index in stride(from: writer, to: 10_000, by: 8) {
                    saved.enter()
                    accounts.favorites.save(token: token, photoID: "p\(index)") { outcome in
                        if case .failure(let error) = outcome { failures.withLock { $0.append("p\(index): \(error)") } }
                        saved.leave()
                    }
                }
                saved.leave()
            }
        }
        saved.wait()
        #expect(failures.withLock { $0 } == [])
        #expect(try accounts.profiles.user(user).favoriteCount == 10_000)

        #expect(throws: AccountsError.favoriteLimitReached(maximum: 10_000)) {
            try Result.awaiting { accounts.favorites.save(token: token, photoID: "p10000", completion: $0) }
        }
        #expect(throws: AccountsError.favoriteLimitReached(maximum: 10_000)) {
            try Result.awaiting { accounts.favorites.save(user, photoID: "p10000", completion: $0) }
        }
        #expect(try accounts.favorites.favoriteIfSaved(user, photoID: "p10000") == nil)
        // A photo already saved is answered as ever, through both entry points.
        let again = try Result.awaiting { accounts.favorites.save(token: token, photoID: "p42", completion: $0) }
        #expect(!again.created)
        #expect(!(try Result.awaiting { accounts.favorites.save(user, photoID: "p43", completion: $0) }).created)

        try Result.awaiting { accounts.favorites.remove(user, photoID: "p0", completion: $0) }
        #expect(try accounts.profiles.user(user).favoriteCount == 9_999)
        #expect(try Result.awaiting { accounts.favorites.save(token: token, photoID: "p10000", completion: $0) }.created)
        #expect(try accounts.profiles.user(user).favoriteCount == 10_000)
        let counted = try accounts.database.read { connection in
            try connection.queryFirst("SELECT count(*) FROM favorites WHERE user_id = ?", [.integer(user.userID)]) {
                $0.int(0)
            }
        }
        #expect(counted == 10_000)
    }

    @Test func aNewFavoritePastTheQuotaIsA409NamingItAndIsCounted() throws {
        let harness = try AccountsHarness(maximumFavorites: 2)
        let token = try harness.register("small-collector")
        #expect(try harness.send(.put, "/favorites/p1", token: token).status == 201)
        #expect(try harness.send(.put, "/favorites/p2", token: token).status == 201)
        let refused = try harness.send(.put, "/favorites/p3", token: token)
        #expect(refused.status == 409)
        #expect(refused.detail == "a user keeps at most 2 favorites; remove one first")
        #expect(harness.refusals.counts[RefusalRule("favorites")] == 1)
        #expect(try harness.send(.put, "/favorites/p2", token: token).status == 200)
        #expect(try harness.send(.get, "/favorites/p3", token: token).status == 404)
        #expect(try harness.send(.delete, "/favorites/p1", token: token).status == 204)
        #expect(try harness.send(.put, "/favorites/p3", token: token).status == 201)
    }
}
