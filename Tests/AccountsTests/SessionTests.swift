import Foundation
import HTTPServer
import SQLite
import Testing
import TestSupport

@testable import Accounts

@Suite struct SessionTests {
    static let challenge = #"Bearer realm="past-nyc""#
    static let invalidTokenChallenge = #"Bearer realm="past-nyc", error="invalid_token""#

    @Test(arguments: [
        (nil, challenge),
        ("Basic YWRhOnNlY3JldA==", challenge),
        ("Bearer", challenge),
        ("Bearer not-a-token", invalidTokenChallenge),
        ("Bearer " + String(repeating: "A", count: 43), invalidTokenChallenge),
        ("Bearer " + String(repeating: "A", count: 42) + "B", invalidTokenChallenge),
    ] as [(String?, String)])
    func protectedEndpointsAnswer401WithAChallenge(authorization: String?, challenge: String) throws {
        let harness = try AccountsHarness()
        _ = try harness.register("someone")
        let requests: [(HTTPMethod, String)] = [
            (.get, "/users/me"), (.post, "/users/logout"), (.put, "/users/me/password"), (.delete, "/users/me"),
            (.get, "/favorites"), (.put, "/favorites/p1"), (.delete, "/favorites/p1"),
            (.patch, "/users/me"), (.delete, "/users/me/data"), (.get, "/recents"), (.put, "/recents/p1"),
            (.delete, "/recents"),
        ]
        for (method, path) in requests {
            // A malformed body: authentication must be checked first.
            let response = try harness.send(
                method, path, rawBody: Array("{oops".utf8), authorization: authorization)
            #expect(response.status == 401, "\(path)")
            #expect(response.headers["WWW-Authenticate"] == challenge, "\(path)")
        }
    }

    @Test func logoutRevokesOnlyThePresentedToken() throws {
        let harness = try AccountsHarness()
        let first = try harness.register("walker")
        let second = try harness.login("walker").token
        #expect(try harness.send(.post, "/users/logout", token: first).status == 204)
        let revoked = try harness.send(.get, "/users/me", token: first)
        #expect(revoked.status == 401)
        #expect(revoked.headers["WWW-Authenticate"] == Self.invalidTokenChallenge)
        #expect(try harness.send(.get, "/users/me", token: second).status == 200)
        #expect(try harness.send(.post, "/users/logout", token: first).status == 401)
    }

    @Test func passwordChangeRevokesEveryOtherToken() throws {
        let harness = try AccountsHarness()
        let kept = try harness.register("changer")
        let other = try harness.login("changer").token

        let wrong = try harness.send(
            .put, "/users/me/password", json: ["currentPassword": "not my password", "newPassword": "a brand new secret"],
            token: kept)
        #expect(wrong.status == 403)
        #expect(wrong.detail?.hasPrefix("currentPassword") == true)

        let common = try harness.send(
            .put, "/users/me/password", json: ["currentPassword": "correct horse battery", "newPassword": "iloveyou"],
            token: kept)
        #expect(common.status == 400)
        #expect(common.detail?.hasPrefix("newPassword") == true)

        let missing = try harness.send(.put, "/users/me/password", json: ["newPassword": "a brand new secret"], token: kept)
        #expect(missing.status == 400)
        #expect(missing.detail?.hasPrefix("currentPassword") == true)
        #expect(try harness.send(.get, "/users/me", token: other).status == 200, "failed changes revoke nothing")

        let changed = try harness.send(
            .put, "/users/me/password",
            json: ["currentPassword": "correct horse battery", "newPassword": "a brand new secret"], token: kept)
        #expect(changed.status == 204)
        #expect(try harness.send(.get, "/users/me", token: kept).status == 200)
        #expect(try harness.send(.get, "/users/me", token: other).status == 401)
        #expect(try harness.login("changer").status == 401)
        #expect(try harness.login("changer", password: "a brand new secret").status == 200)
    }

    @Test(.enabled(if: TestDatabase.usesSQLite, "reads accounts.sqlite itself: SQLite store only")) func deletionRemovesUserTokensAndFavorites() throws {
        let harness = try AccountsHarness()
        let token = try harness.register("leaver")
        let other = try harness.login("leaver").token
        let stays = try harness.register("stayer")
        for photo in ["p1", "p2", "p3"] {
            #expect(try harness.send(.put, "/favorites/\(photo)", token: token).status == 201)
        }
        #expect(try harness.send(.put, "/favorites/p1", token: stays).status == 201)

        let wrong = try harness.send(.delete, "/users/me", json: ["password": "not my password"], token: token)
        #expect(wrong.status == 403)
        #expect(wrong.detail?.hasPrefix("password") == true)
        #expect(try harness.send(.delete, "/users/me", json: [:], token: token).status == 400)

        #expect(try harness.send(.delete, "/users/me", json: ["password": "correct horse battery"], token: token).status == 204)
        #expect(try harness.send(.get, "/users/me", token: token).status == 401)
        #expect(try harness.send(.get, "/favorites", token: other).status == 401)
        #expect(try harness.login("leaver").status == 401)

        let connection = try SQLiteConnection(path: harness.databasePath, mode: .readOnly)
        let counts = try connection.queryFirst(
            """
            SELECT (SELECT count(*) FROM users), (SELECT count(*) FROM tokens), (SELECT count(*) FROM favorites)
            """
        ) { [$0.int(0), $0.int(1), $0.int(2)] }
        #expect(counts == [1, 1, 1], "only the other user's rows remain")

        #expect(try harness.send(.post, "/users", json: ["username": "LEAVER", "password": "correct horse battery"]).status == 201)
    }

    @Test(.enabled(if: TestDatabase.usesSQLite, "reads accounts.sqlite itself: SQLite store only"))
    func tokensExpireThirtyDaysAfterTheirLastUse() throws {
        let harness = try AccountsHarness()
        let used = try harness.register("mayfly")
        let unused = try harness.login("mayfly").token
        harness.clock.advance(by: 30 * 24 * 60 * 60 - 1)
        #expect(try harness.send(.get, "/users/me", token: used).status == 200)
        harness.accounts.tokenUses.waitForFlushes()
        harness.clock.advance(by: 1)
        let expired = try harness.send(.get, "/users/me", token: unused)
        #expect(expired.status == 401)
        #expect(expired.headers["WWW-Authenticate"] == Self.invalidTokenChallenge)
        #expect(try harness.send(.get, "/users/me", token: used).status == 200, "used a second ago")

        let fresh = try harness.login("mayfly")
        #expect(fresh.json["expiresAt"] as? String == "2027-03-16T08:00:00Z")
        #expect(try harness.send(.get, "/users/me", token: fresh.token).status == 200)
        let connection = try SQLiteConnection(path: harness.databasePath, mode: .readOnly)
        #expect(try connection.queryFirst("SELECT count(*) FROM tokens") { $0.int(0) } == 2, "login purges expired tokens")
    }

    @Test func accountsSurviveReopening() throws {
        let harness = try AccountsHarness()
        let token = try harness.register("durable")
        #expect(try harness.send(.put, "/favorites/p7", token: token).status == 201)
        try harness.reopen()
        let me = try harness.send(.get, "/users/me", token: token)
        #expect(me.status == 200)
        #expect(me.json["favoriteCount"] as? Int == 1)
    }
}
