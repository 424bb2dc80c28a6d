import Accounts
import Dispatch
import Synchronization
import Testing
import TestSupport
import UserData
import Walks

/// The quota of walks one user keeps, at its real number, on the store the tests run
/// on: the count that decides it is kept by every write of `walks`.
@Suite struct WalkQuotaTests {
    let fixture: WalksFixture

    init() throws {
        fixture = try WalksFixture(prefix: "walk-quota-tests")
    }

    /// The user's count of walks as stored, beside the walks counted.
    private func counts(of user: AuthenticatedUser) throws -> (kept: Int, counted: Int) {
        try fixture.accounts.database.read { connection in
            let kept = try connection.queryFirst("SELECT walks_count FROM users WHERE id = ?", [.integer(user.userID)]) {
                $0.int(0)
            } ?? -1
            let counted = try connection.queryFirst("SELECT count(*) FROM walks WHERE user_id = ?", [.integer(user.userID)]) {
                $0.int(0)
            } ?? -1
            return (kept, counted)
        }
    }

    @Test func theThousandAndFirstWalkIsRefusedUntilOneIsDeleted() throws {
        let walks = Walks(database: fixture.accounts.database, catalog: { fixture.catalog })
        let walker = try fixture.user("prolific")
        let bystander = try fixture.user("bystander")
        // Eight writers at once, so the thousand starts share commits.
        let started = Mutex<[String]>([])
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { writer in
            for _ in 0..<(WalkRules.maximumWalks / 8) {
                do {
                    let walk = try walks.start(walker)
                    started.withLock { $0.append(walk.walkID) }
                } catch {
                    failures.withLock { $0.append("writer \(writer): \(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(WalkRules.maximumWalks == 1_000)
        #expect(try counts(of: walker) == (1_000, 1_000))

        #expect(throws: WalkError.walkLimitReached(maximumWalks: 1_000)) { try walks.start(walker) }
        #expect(try counts(of: walker) == (1_000, 1_000))
        // Another user's walks are their own.
        _ = try walks.start(bystander)

        let deleted = started.withLock { $0[0] }
        try walks.delete(walker, walkID: deleted)
        #expect(try counts(of: walker) == (999, 999))
        let again = try walks.start(walker)
        #expect(try walks.walks(walker, limit: 1, cursor: nil).walks.first?.walkID == again.walkID)
        #expect(throws: WalkError.walkLimitReached(maximumWalks: 1_000)) { try walks.start(walker) }
        #expect(try counts(of: bystander) == (1, 1))
    }

    @Test func aResetGivesTheWalksBack() throws {
        let walks = Walks(database: fixture.accounts.database, catalog: { fixture.catalog }, maximumWalks: 3)
        let walker = try fixture.user("resetting")
        for _ in 0..<3 { _ = try walks.start(walker) }
        #expect(throws: WalkError.walkLimitReached(maximumWalks: 3)) { try walks.start(walker) }
        try fixture.accounts.eraseUserData(walker)
        #expect(try counts(of: walker) == (0, 0))
        _ = try walks.start(walker)
        #expect(try counts(of: walker) == (1, 1))
    }
}
