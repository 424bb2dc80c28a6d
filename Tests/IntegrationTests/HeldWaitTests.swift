import Foundation
import HTTPServer
import Testing
import TestSupport

/// The held `GET /sync?wait=` requests over real sockets, on the store the run uses: at
/// most 16 held per user (one more is `429`), and a held request answered `401` soon
/// after its token stops working, however that happens, on every instance.
@Suite struct HeldWaitTests {
    /// What revokes the token of the held request, from another device of the user.
    enum Revocation: String, CaseIterable, Sendable {
        case logout, passwordChange, accountDeletion, expiry
    }

    @Test func theSeventeenthHeldRequestOfAUserIs429WhileOthersStillHold() throws {
        let app = try TestApplication()
        let alice = try SignedInClient(port: app.port, username: "Holder")
        let bob = try SignedInClient(port: app.port, username: "Other")
        let photo = try #require(try alice.catalogPhotoIDs(1).first)
        let before = try #require(try alice.object("GET", "/sync")["next"] as? String)
        #expect(try alice.send("PUT", "/favorites/\(photo)").status == 201)
        let now = try #require(try alice.object("GET", "/sync")["next"] as? String)

        let held = try (0..<16).map { _ in try Self.hold(app, token: alice.token, since: now) }
        try Self.waitForHeld(app, count: 16)

        let refused = try alice.send("GET", "/sync?since=\(now)&wait=30")
        #expect(refused.status == 429)
        #expect(refused.header("Content-Type") == "application/problem+json")
        let retryAfter = try #require(refused.header("Retry-After").flatMap(Int.init))
        #expect((1...30).contains(retryAfter))
        #expect(refused.problemDetail.contains("16"), "\(refused.bodyText)")
        #expect(app.application.refusals.counts[RefusalRule("held-waits")] == 1)

        // Answers given at once do not count: no wait, or something new to answer with.
        #expect(try alice.send("GET", "/sync?since=\(now)").status == 200)
        let atOnce = try alice.send("GET", "/sync?since=\(before)&wait=30")
        #expect(atOnce.status == 200)
        #expect((try atOnce.object()["changes"] as? [Any])?.isEmpty == false)

        // Another user still holds.
        let bobsNext = try #require(try bob.object("GET", "/sync")["next"] as? String)
        let bobsWait = try Self.hold(app, token: bob.token, since: bobsNext)
        try Self.waitForHeld(app, count: 17)

        // Alice's next change answers her sixteen; then she may hold again.
        #expect(try alice.send("DELETE", "/favorites/\(photo)").status == 204)
        for client in held {
            #expect(try client.readResponse().status == 200)
        }
        try Self.waitForHeld(app, count: 1)
        _ = try Self.hold(app, token: alice.token, since: try #require(try alice.object("GET", "/sync")["next"] as? String))
        try Self.waitForHeld(app, count: 2)
        #expect(app.application.refusals.counts[RefusalRule("held-waits")] == 1)
        _ = bobsWait
    }

    @Test func zeroLiftsTheLimit() throws {
        let app = try TestApplication { $0.maxHeldWaitsPerUser = 0 }
        let user = try SignedInClient(port: app.port, username: "Unlimited")
        let next = try #require(try user.object("GET", "/sync")["next"] as? String)
        let held = try (0..<20).map { _ in try Self.hold(app, token: user.token, since: next) }
        try Self.waitForHeld(app, count: 20)
        #expect(held.count == 20)
        #expect(app.application.refusals.counts[RefusalRule("held-waits")] == nil)
    }

    @Test(arguments: Revocation.allCases)
    func aHeldRequestWhoseTokenStopsWorkingIsAnswered401(_ revocation: Revocation) throws {
        let clock = TestClock(Date())
        let app = try TestApplication(clock: clock)
        let phone = try SignedInClient(port: app.port, username: "Revoked")
        let laptop = try SignedInClient(port: app.port, username: "Revoked", logIn: true)
        let next = try #require(try phone.object("GET", "/sync")["next"] as? String)
        let waiting = try Self.hold(app, token: phone.token, since: next)
        try Self.waitForHeld(app, count: 1)

        switch revocation {
        case .logout:
            #expect(try phone.send("POST", "/users/logout").status == 204)
        case .passwordChange:
            let body = #"{"currentPassword":"\#(SignedInClient.password)","newPassword":"another long walk uptown"}"#
            #expect(try laptop.send("PUT", "/users/me/password", body: body).status == 204)
        case .accountDeletion:
            #expect(try laptop.send("DELETE", "/users/me", body: #"{"password":"\#(SignedInClient.password)"}"#).status == 204)
        case .expiry:
            clock.advance(by: 31 * 24 * 60 * 60)
        }

        let answer = try waiting.readResponse()
        #expect(answer.status == 401, "\(revocation): \(answer.bodyText)")
        #expect(answer.header("WWW-Authenticate") == #"Bearer realm="past-nyc", error="invalid_token""#)
        #expect(answer.header("Cache-Control") == "no-store")
        #expect(answer.header("Content-Type") == "application/problem+json")
        try Self.waitForHeld(app, count: 0)
        if revocation == .passwordChange {
            #expect(try laptop.send("GET", "/sync").status == 200, "the token that changed the password still works")
        }
    }

    /// Two instances on one PostgreSQL database: a logout through one answers the
    /// request held by the other.
    @Test(.enabled(if: TestDatabase.serverURL != nil, "needs PostgreSQL: set PAST_NYC_TEST_DATABASE_URL"))
    func aLogoutThroughOneInstanceAnswersTheRequestHeldByAnother() throws {
        let first = try TestApplication()
        let second = try TestApplication(databaseURL: try #require(first.database?.url))
        let user = try SignedInClient(port: first.port, username: "Clustered")
        let next = try #require(try user.object("GET", "/sync")["next"] as? String)
        let waiting = try Self.hold(second, token: user.token, since: next)
        try Self.waitForHeld(second, count: 1)

        #expect(try user.send("POST", "/users/logout").status == 204)
        let answer = try waiting.readResponse()
        #expect(answer.status == 401, "\(answer.bodyText)")
        #expect(answer.header("WWW-Authenticate") == #"Bearer realm="past-nyc", error="invalid_token""#)
        try Self.waitForHeld(second, count: 0)
    }

    /// A connection holding `GET /sync?since=…&wait=30` with `token`; its client gives up
    /// after 20 s, before the wait would run out.
    static func hold(_ app: TestApplication, token: String, since: String) throws -> RawHTTPClient {
        let client = try RawHTTPClient(port: app.port, timeout: .seconds(20))
        try client.send("GET /sync?since=\(since)&wait=30 HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \(token)\r\n\r\n")
        return client
    }

    /// Waits (at most 10 s) until the application holds exactly `count` requests that
    /// read the log after being held and found nothing: only a wake answers them now.
    static func waitForHeld(_ app: TestApplication, count: Int) throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while app.application.heldSyncWaits != count, ContinuousClock.now < deadline {
            usleep(1000)
        }
        try #require(app.application.heldSyncWaits == count)
    }
}
