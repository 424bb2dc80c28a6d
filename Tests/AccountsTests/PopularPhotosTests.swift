import Accounts
import Foundation
import Testing
import TestSupport

/// What people are saving now, against counting the favorites the test itself made,
/// on whichever store the tests run on.
@Suite struct PopularPhotosTests {
    /// Seeded random saves and removals by 12 users of 15 photos over about two simulated
    /// weeks (within the tokens' lifetime); after each half day, windows of 1 to 30 days
    /// against a brute-force count.
    @Test func windowsMatchCountingTheFavorites() throws {
        let harness = try AccountsHarness()
        var random = SeededGenerator(seed: 31)
        let tokens = try (0..<12).map { try harness.register("saver\($0)") }
        let photos = (0..<15).map { "p\($0)" }
        /// The current favorites: (user, photo) → when saved.
        var saved: [String: Date] = [:]
        for day in 0..<24 {
            for _ in 0..<Int.random(in: 0...12, using: &random) {
                let user = Int.random(in: 0..<tokens.count, using: &random)
                let photo = photos[Int.random(in: 0..<photos.count, using: &random)]
                let key = "\(user) \(photo)"
                if saved[key] != nil, Int.random(in: 0..<4, using: &random) == 0 {
                    #expect(try harness.send(.delete, "/favorites/\(photo)", token: tokens[user]).status == 204)
                    saved[key] = nil
                } else if saved[key] == nil {
                    #expect(try harness.send(.put, "/favorites/\(photo)", token: tokens[user]).status == 201)
                    saved[key] = harness.clock.now
                }
                harness.clock.advance(by: Double.random(in: 60...1800, using: &random))
            }
            harness.clock.advance(by: 86_400 / 2)
            for days in [1, 2, 3, 7, 30] where day % 3 == 0 || days == 1 {
                let since = harness.clock.now.addingTimeInterval(-Double(days) * 86_400)
                var counts: [String: Int] = [:]
                for (key, date) in saved where date >= since { counts[String(key.split(separator: " ")[1]), default: 0] += 1 }
                let expected = counts.filter { $0.value >= PopularPhotos.minimumSavers }
                    .map { PopularPhoto(photoID: $0.key, saveCount: $0.value) }
                    .sorted { $0.saveCount != $1.saveCount ? $0.saveCount > $1.saveCount : $0.photoID.utf8.lexicographicallyPrecedes($1.photoID.utf8) }
                #expect(try harness.accounts.popularPhotos.popular(days: days) == expected, "day \(day), \(days) days")
            }
            // A list read within the refresh interval is not read again.
            harness.clock.advance(by: PopularPhotos.refreshInterval)
        }
    }

    /// Two savers are not enough to be listed; a third is; a removal drops it again once
    /// the list is read anew.
    @Test func theFloorIsThreeSavers() throws {
        let harness = try AccountsHarness()
        let tokens = try (0..<3).map { try harness.register("floor\($0)") }
        for token in tokens.prefix(2) { #expect(try harness.send(.put, "/favorites/p7", token: token).status == 201) }
        #expect(try harness.accounts.popularPhotos.popular(days: 30).isEmpty)
        #expect(try harness.send(.put, "/favorites/p7", token: tokens[2]).status == 201)
        #expect(try harness.accounts.popularPhotos.popular(days: 30).isEmpty, "still the list read within the second")
        harness.clock.advance(by: PopularPhotos.refreshInterval)
        #expect(try harness.accounts.popularPhotos.popular(days: 30) == [PopularPhoto(photoID: "p7", saveCount: 3)])
        #expect(harness.accounts.popularPhotos.recent(days: 30) == [PopularPhoto(photoID: "p7", saveCount: 3)])
        #expect(try harness.send(.delete, "/favorites/p7", token: tokens[0]).status == 204)
        harness.clock.advance(by: PopularPhotos.refreshInterval)
        #expect(harness.accounts.popularPhotos.recent(days: 30) == nil, "older than the refresh interval")
        #expect(try harness.accounts.popularPhotos.popular(days: 30).isEmpty)
    }
}
