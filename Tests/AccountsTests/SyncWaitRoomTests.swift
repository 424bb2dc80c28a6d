import Dispatch
import Logging
import Synchronization
import Testing

@testable import API
@testable import Accounts
@testable import UserData

/// `SyncWaitRoom` alone, its ticks driven by hand: the per-user limit, and which held
/// requests a tick wakes when their tokens stop working.
@Suite struct SyncWaitRoomTests {
    /// The store as the tests script it: which tokens work, and how often it was asked.
    final class Tokens: Sendable {
        let working = Mutex<Set<AuthenticatedUser>>([])
        let asked = Mutex(0)
        let failing = Mutex(false)

        func check(_ tokens: Set<AuthenticatedUser>) throws -> Set<AuthenticatedUser> {
            asked.withLock { $0 += 1 }
            if failing.withLock({ $0 }) { throw UserDataError(.unavailable(retryAfterSeconds: 1), detail: "down") }
            return working.withLock { tokens.intersection($0) }
        }
    }

    /// The wakes of the held requests, by name.
    final class Wakes: Sendable {
        private let wakes = Mutex<[String: SyncWaitRoom.Wake]>([:])
        private let arrived = DispatchSemaphore(value: 0)

        func wake(_ name: String) -> @Sendable (SyncWaitRoom.Wake) -> Void {
            { reason in
                self.wakes.withLock { $0[name] = reason }
                self.arrived.signal()
            }
        }

        /// Waits (at most 10 s) for `count` more wakes, then returns them all.
        func awaiting(_ count: Int) -> [String: SyncWaitRoom.Wake] {
            for _ in 0..<count { _ = arrived.wait(timeout: .now() + .seconds(10)) }
            return wakes.withLock { $0 }
        }
    }

    static func token(_ userID: Int64, _ byte: UInt8) -> AuthenticatedUser {
        AuthenticatedUser(userID: userID, tokenHash: Array(repeating: byte, count: 32))
    }

    static func room(maximumPerUser: Int, tokens: Tokens) -> SyncWaitRoom {
        SyncWaitRoom(
            feed: ChangeFeed(), maximumPerUser: maximumPerUser, revalidationInterval: nil,
            logger: Self.quiet) { try tokens.check($0) }
    }

    /// A minute from now, as each hold asks it (a stored deadline would age with the test run).
    static var later: DispatchTime { .now() + .seconds(60) }

    /// The failed check of a test is expected: not logged.
    static let quiet: Logger = {
        var logger = Logger(label: "sync-wait-room-tests")
        logger.logLevel = .critical
        return logger
    }()

    @Test func oneMoreThanTheLimitIsRefusedUnlessAlreadyLetIn() {
        let room = Self.room(maximumPerUser: 3, tokens: Tokens())
        let wakes = Wakes()
        for index in 0..<3 {
            guard case .held = room.hold(Self.token(1, 1), until: Self.later, wake: wakes.wake("\(index)")) else {
                Issue.record("hold \(index) refused")
                return
            }
        }
        guard case .full(let retryAfter) = room.hold(Self.token(1, 2), until: Self.later, wake: wakes.wake("4")) else {
            Issue.record("the fourth was held")
            return
        }
        #expect((59...60).contains(retryAfter), "the first wait ends in a minute")
        guard case .held = room.hold(Self.token(1, 1), until: Self.later, counted: false, wake: wakes.wake("again")) else {
            Issue.record("a request let in before was refused")
            return
        }
        guard case .held = room.hold(Self.token(2, 3), until: Self.later, wake: wakes.wake("other")) else {
            Issue.record("another user was refused")
            return
        }
        #expect(room.heldCount == 5)
    }

    @Test func zeroLiftsTheLimit() {
        let room = Self.room(maximumPerUser: 0, tokens: Tokens())
        let wakes = Wakes()
        for index in 0..<100 {
            guard case .held = room.hold(Self.token(1, 1), until: Self.later, wake: wakes.wake("\(index)")) else {
                Issue.record("hold \(index) refused")
                return
            }
        }
        #expect(room.heldCount == 100)
    }

    @Test func aTickWakesTheRequestsOfTokensThatStoppedWorkingOnly() {
        let tokens = Tokens()
        let room = Self.room(maximumPerUser: 16, tokens: tokens)
        let wakes = Wakes()
        let (revoked, kept, other) = (Self.token(1, 1), Self.token(1, 2), Self.token(2, 3))
        tokens.working.withLock { $0 = [kept, other] }

        room.revalidate()
        #expect(tokens.asked.withLock { $0 } == 0, "nothing held: nothing asked")

        _ = room.hold(revoked, until: Self.later, wake: wakes.wake("revoked-1"))
        _ = room.hold(revoked, until: Self.later, wake: wakes.wake("revoked-2"))
        _ = room.hold(kept, until: Self.later, wake: wakes.wake("kept"))
        _ = room.hold(other, until: Self.later, wake: wakes.wake("other"))
        room.revalidate()
        #expect(tokens.asked.withLock { $0 } == 1, "one query a tick")
        let woken = wakes.awaiting(2)
        #expect(woken.count == 2)
        #expect(woken["revoked-1"] == .tokenStopped && woken["revoked-2"] == .tokenStopped)
        #expect(room.heldCount == 2)

        tokens.failing.withLock { $0 = true }
        room.revalidate()
        #expect(room.heldCount == 2, "a store that cannot answer wakes no one")
    }

    @Test func theTickRunsByItselfWhileSomethingIsHeld() {
        let tokens = Tokens()
        let room = SyncWaitRoom(
            feed: ChangeFeed(), maximumPerUser: 16, revalidationInterval: .milliseconds(10),
            logger: Self.quiet) { try tokens.check($0) }
        let wakes = Wakes()
        _ = room.hold(Self.token(1, 1), until: Self.later, wake: wakes.wake("revoked"))
        #expect(wakes.awaiting(1)["revoked"] == .tokenStopped)
        #expect(room.heldCount == 0)
    }

    /// Only requests marked settled count as settled, and each leaves the count however
    /// it ends: released, woken by a change, or by its token stopping.
    @Test func settledRequestsAreCountedUntilTheyEnd() {
        let tokens = Tokens()
        let feed = ChangeFeed()
        let room = SyncWaitRoom(
            feed: feed, maximumPerUser: 16, revalidationInterval: nil, logger: Self.quiet) { try tokens.check($0) }
        let wakes = Wakes()
        let (first, second, third) = (Self.token(1, 1), Self.token(2, 2), Self.token(3, 3))
        tokens.working.withLock { $0 = [first, second] }
        var tickets: [UInt64] = []
        for (index, token) in [first, second, third, first].enumerated() {
            guard case .held(let ticket) = room.hold(token, until: Self.later, wake: wakes.wake("\(index)")) else {
                Issue.record("hold \(index) refused")
                return
            }
            tickets.append(ticket)
        }
        #expect(room.settledCount == 0, "held, but none has read the log yet")
        room.settle(1, ticket: tickets[0])
        room.settle(2, ticket: tickets[1])
        room.settle(3, ticket: tickets[2])
        #expect((room.settledCount, room.heldCount) == (3, 4))

        room.release(1, ticket: tickets[3])
        #expect((room.settledCount, room.heldCount) == (3, 3), "the released one was not settled")
        room.revalidate()
        #expect(wakes.awaiting(1)["2"] == .tokenStopped)
        #expect((room.settledCount, room.heldCount) == (2, 2))
        feed.publish(.some([1]))
        #expect(wakes.awaiting(1)["0"] == .changed)
        #expect((room.settledCount, room.heldCount) == (1, 1))
        room.settle(1, ticket: tickets[0])
        #expect(room.settledCount == 1, "a request no longer held cannot be settled")
    }
}
