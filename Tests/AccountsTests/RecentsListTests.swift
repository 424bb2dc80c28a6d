import Accounts
import Testing
import TestSupport

/// The recently viewed list, kept by `Recents.record` with its length counted in
/// `users.recents_count`, against a plain model of it (an array, most recent first,
/// cut at the capacity): seeded random views of 140 photos, clears, resets of the
/// user's data and another user's views, the whole stored list compared after each.
/// Views go through both entry points, by an authenticated user and by a token (on
/// PostgreSQL the function `record_view`), in random turns.
@Suite struct RecentsListTests {
    @Test(arguments: [1, 2, 3] as [UInt64]) func theListIsWhatAModelOfItSays(seed: UInt64) throws {
        let harness = try AccountsHarness()
        let accounts = harness.accounts
        let viewerToken = try harness.register("viewer")
        let viewer = try accounts.sessions.authenticate(token: viewerToken)
        let bystanderToken = try harness.register("bystander")
        let bystander = try accounts.sessions.authenticate(token: bystanderToken)
        var model: [String] = []
        var bystanders: [String] = []
        var generator = SeededGenerator(seed: seed)
        let view = { (user: AuthenticatedUser, token: String, photoID: String, list: inout [String]) in
            let recent = Bool.random(using: &generator)
                ? try Result.awaiting { accounts.recents.record(user, photoID: photoID, completion: $0) }
                : try Result.awaiting { accounts.recents.record(token: token, photoID: photoID, completion: $0) }
            #expect(recent.photoID == photoID)
            list.removeAll { $0 == photoID }
            list.insert(photoID, at: 0)
            if list.count > Recents.capacity { list.removeLast() }
        }
        for step in 0..<500 {
            let photoID = "p\(Int.random(in: 0..<140, using: &generator))"
            switch Int.random(in: 0..<100, using: &generator) {
            case 0:
                try Result.awaiting { accounts.recents.clear(viewer, completion: $0) }
                model = []
            case 1:
                try accounts.eraseUserData(viewer)
                model = []
            case 2..<8:
                try view(bystander, bystanderToken, photoID, &bystanders)
            default:
                try view(viewer, viewerToken, photoID, &model)
            }
            // Every stored view, not only a page of them: the list never holds more.
            #expect(try accounts.recents.list(viewer, limit: 1000).map(\.photoID) == model, "step \(step)")
        }
        #expect(try accounts.recents.list(bystander, limit: 1000).map(\.photoID) == bystanders)
        #expect(throws: AccountsError.invalidToken) {
            try Result.awaiting { accounts.recents.record(token: "not a token", photoID: "p1", completion: $0) }
        }
    }
}
