import Accounts
import Testing
import TestSupport

/// The recently viewed list, kept by `Accounts.recordView` with its length counted in
/// `users.recents_count`, against a plain model of it (an array, most recent first,
/// cut at the capacity): seeded random views of 140 photos, clears, resets of the
/// user's data and another user's views, the whole stored list compared after each.
@Suite struct RecentsListTests {
    @Test(arguments: [1, 2, 3] as [UInt64]) func theListIsWhatAModelOfItSays(seed: UInt64) throws {
        let harness = try AccountsHarness()
        let accounts = harness.accounts
        let viewer = try accounts.authenticate(token: try harness.register("viewer"))
        let bystander = try accounts.authenticate(token: try harness.register("bystander"))
        var model: [String] = []
        var bystanders: [String] = []
        let view = { (user: AuthenticatedUser, photoID: String, list: inout [String]) in
            _ = try Result.awaiting { accounts.recordView(user, photoID: photoID, completion: $0) }
            list.removeAll { $0 == photoID }
            list.insert(photoID, at: 0)
            if list.count > Accounts.recentsCapacity { list.removeLast() }
        }
        var generator = SeededGenerator(seed: seed)
        for step in 0..<500 {
            let photoID = "p\(Int.random(in: 0..<140, using: &generator))"
            switch Int.random(in: 0..<100, using: &generator) {
            case 0:
                try Result.awaiting { accounts.clearRecents(viewer, completion: $0) }
                model = []
            case 1:
                try Result.awaiting { accounts.eraseUserData(viewer, completion: $0) }
                model = []
            case 2..<8:
                try view(bystander, photoID, &bystanders)
            default:
                try view(viewer, photoID, &model)
            }
            // Every stored view, not only a page of them: the list never holds more.
            #expect(try accounts.recents(viewer, limit: 1000).map(\.photoID) == model, "step \(step)")
        }
        #expect(try accounts.recents(bystander, limit: 1000).map(\.photoID) == bystanders)
    }
}
