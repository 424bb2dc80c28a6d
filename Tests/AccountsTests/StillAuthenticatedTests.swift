import Foundation
import Testing
import TestSupport

@testable import Accounts

/// `Accounts.stillAuthenticated`, the one query of the held requests' tick, on the store
/// the run uses, checked against `authenticate(token:)` one token at a time.
@Suite struct StillAuthenticatedTests {
    @Test func itKeepsExactlyTheTokensThatStillAuthenticate() throws {
        let harness = try AccountsHarness()
        // More tokens than SQLite checks in one statement (`tokenCheckCapacity`), of a
        // few users, some of them then revoked in each way a token stops working.
        var tokens: [String] = []
        for user in 0..<3 {
            tokens.append(try harness.register("user\(user)"))
            for _ in 0..<(Sessions.tokenCheckCapacity / 2) {
                tokens.append(try harness.login("user\(user)").token)
            }
        }
        #expect(tokens.count > Sessions.tokenCheckCapacity)
        let password = #"{"currentPassword":"correct horse battery","newPassword":"another horse battery"}"#
        #expect(try harness.send(.put, "/users/me/password", rawBody: Array(password.utf8), token: tokens[1]).status == 204)
        #expect(try harness.send(.delete, "/users/me", json: ["password": "correct horse battery"], token: tokens.last).status == 204)
        var random = SeededGenerator(seed: 7)
        for token in tokens where random.next() % 4 == 0 {
            #expect([204, 401].contains(try harness.send(.post, "/users/logout", token: token).status))
        }

        let authenticated = Set(tokens.compactMap { try? harness.accounts.sessions.authenticate(token: $0) })
        let all = Set(tokens.compactMap(AccessToken.digest)).map { AuthenticatedUser(userID: 0, tokenHash: $0) }
        let working = try harness.accounts.sessions.stillAuthenticated(Set(all))
        #expect(Set(working.map(\.tokenHash)) == Set(authenticated.map(\.tokenHash)))
        #expect(!authenticated.isEmpty && authenticated.count < tokens.count)

        harness.clock.advance(by: TimeInterval(Sessions.idleLifetime))
        #expect(try harness.accounts.sessions.stillAuthenticated(authenticated).isEmpty, "expired")
        #expect(try harness.accounts.sessions.stillAuthenticated([]).isEmpty)
    }
}
