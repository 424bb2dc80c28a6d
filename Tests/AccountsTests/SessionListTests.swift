import Foundation
import Testing
import TestSupport

@testable import Accounts

/// Sessions that last: a token expires 30 days after its last use, at most 365 after
/// it was made; the list and the revocation of sessions (contract: Keeping an account,
/// Sessions). On SQLite, or PostgreSQL with `PAST_NYC_TEST_DATABASE_URL`.
@Suite struct SessionListTests {
    static let day: TimeInterval = 24 * 60 * 60

    static func sessions(_ harness: AccountsHarness, token: String) throws -> [[String: Any]] {
        let response = try harness.send(.get, "/users/me/sessions", token: token)
        try #require(response.status == 200)
        #expect(response.headers["Cache-Control"] == "no-store")
        return try #require(response.json["sessions"] as? [[String: Any]])
    }

    static func timestamp(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }

    /// Uses a token at the harness's time and waits until this use is stored.
    static func use(_ harness: AccountsHarness, _ token: String) throws {
        _ = try harness.accounts.sessions.authenticate(token: token)
        harness.accounts.tokenUses.waitForFlushes()
    }

    @Test func aTokenLivesThirtyDaysAfterItsLastUseAndAYearAtMost() throws {
        let harness = try AccountsHarness()
        let token = try harness.register("daily")
        let idle = try harness.register("idle")
        // A use every 29 days keeps it working for a year, and not a second longer.
        for _ in 0..<12 {
            harness.clock.advance(by: 29 * Self.day)
            try Self.use(harness, token)
        }
        #expect(try harness.send(.get, "/users/me", token: idle).status == 401, "unused for 30 days and more")
        harness.clock.advance(by: 17 * Self.day - 1)  // 365 days after the registration, less a second
        #expect(try harness.send(.get, "/users/me", token: token).status == 200)
        harness.accounts.tokenUses.waitForFlushes()
        harness.clock.advance(by: 1)
        #expect(try harness.send(.get, "/users/me", token: token).status == 401, "365 days after it was made")
    }

    @Test func aTokenUnusedForThirtyDaysStopsWorkingAndOneUsedGoesOn() throws {
        let harness = try AccountsHarness()
        let used = try harness.register("used")
        let unused = try harness.login("used").token
        harness.clock.advance(by: 20 * Self.day)
        try Self.use(harness, used)
        harness.clock.advance(by: 10 * Self.day)
        #expect(try harness.send(.get, "/users/me", token: unused).status == 401, "30 days after its last use")
        #expect(try harness.send(.get, "/users/me", token: used).status == 200, "10 days after its last use")
        harness.accounts.tokenUses.waitForFlushes()
        harness.clock.advance(by: 30 * Self.day)
        #expect(try harness.send(.get, "/users/me", token: used).status == 401, "30 days after that use")
    }

    @Test func theListShowsEachSessionMostRecentlyUsedFirst() throws {
        let harness = try AccountsHarness()
        let start = harness.clock.now
        let phone = try harness.send(
            .post, "/users", json: ["username": "owner", "password": "correct horse battery"], userAgent: "PastNYC/2.1 iOS")
        try #require(phone.status == 201)
        harness.clock.advance(by: 60)
        let long = String(repeating: "\u{E9}", count: 300)
        let laptop = try harness.send(
            .post, "/users/login", json: ["username": "owner", "password": "correct horse battery"], userAgent: long)
        harness.clock.advance(by: 60)
        let bare = try harness.login("owner").token
        let other = try harness.register("someone.else")
        harness.clock.advance(by: 3600)
        try Self.use(harness, laptop.token)
        harness.clock.advance(by: 5)

        let listed = try Self.sessions(harness, token: phone.token)
        try #require(listed.count == 3, "the other user's session is not listed")
        #expect(listed.map { $0["userAgent"] as? String } == ["PastNYC/2.1 iOS", String(long.prefix(256)), nil])
        #expect(listed.map { $0["current"] as? Bool } == [true, false, false])
        let now = harness.clock.now
        #expect(listed.map { $0["lastUsedAt"] as? String } == [
            Self.timestamp(now), Self.timestamp(now.addingTimeInterval(-5)), Self.timestamp(start.addingTimeInterval(120)),
        ])
        #expect(listed.map { $0["createdAt"] as? String } == [
            Self.timestamp(start), Self.timestamp(start.addingTimeInterval(60)), Self.timestamp(start.addingTimeInterval(120)),
        ])
        #expect(listed[0]["expiresAt"] as? String == Self.timestamp(now.addingTimeInterval(30 * Self.day)))
        #expect(Set(listed.compactMap { $0["sessionID"] as? String }).count == 3)
        #expect(listed.allSatisfy { ($0["sessionID"] as? String).map { !$0.isEmpty && ![phone.token, laptop.token, bare].contains($0) } ?? false })
        #expect(try Self.sessions(harness, token: other).count == 1)
    }

    @Test func expiresAtIsCappedAYearAfterTheLogin() throws {
        let harness = try AccountsHarness()
        let start = harness.clock.now
        let token = try harness.register("loyal")
        for _ in 0..<12 {
            harness.clock.advance(by: 29 * Self.day)
            try Self.use(harness, token)
        }
        let listed = try Self.sessions(harness, token: token)
        #expect(listed.first?["expiresAt"] as? String == Self.timestamp(start.addingTimeInterval(365 * Self.day)))
    }

    @Test func aRevokedSessionStopsWorkingAtOnceAndAnotherUsersIs404() throws {
        let harness = try AccountsHarness()
        let kept = try harness.register("careful")
        let lost = try harness.login("careful").token
        let stranger = try harness.register("stranger")
        let listed = try Self.sessions(harness, token: kept)
        let lostID = try #require(listed.first { $0["current"] as? Bool == false }?["sessionID"] as? String)
        let keptID = try #require(listed.first { $0["current"] as? Bool == true }?["sessionID"] as? String)

        let refused = try harness.send(.delete, "/users/me/sessions/\(lostID)", token: stranger)
        #expect(refused.status == 404, "another user's session is not found, not forbidden")
        #expect(try harness.send(.get, "/users/me", token: lost).status == 200)
        #expect(try harness.send(.delete, "/users/me/sessions/no-such-session", token: kept).status == 404)

        #expect(try harness.send(.delete, "/users/me/sessions/\(lostID)", token: kept).status == 204)
        #expect(try harness.send(.get, "/users/me", token: lost).status == 401)
        #expect(try harness.send(.delete, "/users/me/sessions/\(lostID)", token: kept).status == 404, "gone already")
        #expect(try Self.sessions(harness, token: kept).count == 1)

        #expect(try harness.send(.delete, "/users/me/sessions/\(keptID)", token: kept).status == 204, "a logout")
        #expect(try harness.send(.get, "/users/me", token: kept).status == 401)
    }
}
