import Accounts
import Testing
import TestSupport

/// The `since` tokens of `GET /sync`, on the clock: usable for 30 days, then 410.
@Suite struct SyncTokenTests {
    @Test func aTokenWorksForThirtyDaysThenIsGone() throws {
        let harness = try AccountsHarness()
        let user = try harness.accounts.sessions.authenticate(token: try harness.register("Rip"))
        let whole = try harness.accounts.changeLog.changes(user, since: nil, limit: 10)
        #expect(whole.changes.map(\.kind) == [.profile])
        #expect(!whole.more)

        harness.clock.advance(by: 30 * 24 * 60 * 60)
        let later = try harness.accounts.changeLog.changes(user, since: whole.next, limit: 10)
        #expect(later.changes.isEmpty)

        harness.clock.advance(by: 1)
        #expect(throws: AccountsError.expiredSyncToken) { try harness.accounts.changeLog.changes(user, since: whole.next, limit: 10) }
        // The token answered at the 30th day starts its own 30 days.
        #expect(try harness.accounts.changeLog.changes(user, since: later.next, limit: 10).changes.isEmpty)
    }

    @Test func aTokenOfAnotherUserOrAlteredIsRefused() throws {
        let harness = try AccountsHarness()
        let ada = try harness.accounts.sessions.authenticate(token: try harness.register("Ada"))
        let bob = try harness.accounts.sessions.authenticate(token: try harness.register("Bob"))
        let next = try harness.accounts.changeLog.changes(ada, since: nil, limit: 10).next
        #expect(throws: AccountsError.invalidSyncToken) { try harness.accounts.changeLog.changes(bob, since: next, limit: 10) }
        for forged in ["", "x", next + "A", String(next.dropFirst())] {
            #expect(throws: AccountsError.invalidSyncToken) { try harness.accounts.changeLog.changes(ada, since: forged, limit: 10) }
        }
    }
}
