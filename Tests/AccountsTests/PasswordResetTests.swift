import Foundation
import Testing
import TestSupport

@testable import Accounts

/// Password reset by mail (contract: Keeping an account, Password reset): the same 202
/// for every address, a token of one use for 30 minutes, at most 5 messages an hour per
/// address. On SQLite, or PostgreSQL with `PAST_NYC_TEST_DATABASE_URL`.
@Suite struct PasswordResetTests {
    /// A harness that sends mail, with "forgetful" registered and its address verified.
    static func verifiedUser() throws -> (AccountsHarness, token: String) {
        var options = AccountsHarness.Options()
        options.sendsMail = true
        let harness = try AccountsHarness(options)
        let token = try harness.register("forgetful")
        try #require(try harness.verify("forgetful@example.org", token: token).status == 200)
        return (harness, token)
    }

    static func request(_ harness: AccountsHarness, _ email: String, from address: String = "192.0.2.1") throws -> TestResponse {
        try harness.send(.post, "/users/password-reset", json: ["email": email], from: address)
    }

    static func confirm(_ harness: AccountsHarness, token: String, password: String = "a brand new secret") throws -> TestResponse {
        try harness.send(.post, "/users/password-reset/confirm", json: ["token": token, "newPassword": password])
    }

    @Test func everyAddressGetsTheSame202() throws {
        let (harness, _) = try Self.verifiedUser()
        let pending = try harness.register("unverified")
        try #require(try harness.setEmail("pending@example.org", token: pending).status == 200)
        let answers = try ["FORGETFUL@example.org", "nobody@example.org", "pending@example.org"].map { try Self.request(harness, $0) }
        #expect(answers.map(\.status) == [202, 202, 202])
        #expect(Set(answers.map(\.body)).count == 1, "one body for all")
        #expect(answers.allSatisfy { $0.headers["Cache-Control"] == "no-store" })
        let reset = try #require(try harness.mails(to: "forgetful@example.org", count: 2).last)
        #expect(reset.header("Subject") == "Reset your PAST NYC password")
        let queued = try harness.accounts.database.read { connection in
            try connection.query("SELECT recipient FROM mail_outbox WHERE kind = 'passwordReset'", []) { $0.text(0) }
        }
        #expect(queued == ["forgetful@example.org"], "nothing for the unknown or unverified address")

        let malformed = try Self.request(harness, "not an address")
        #expect(malformed.status == 400 && malformed.detail?.hasPrefix("email ") == true)
        #expect(try harness.send(.post, "/users/password-reset", json: ["mail": "x@y"]).status == 400)
    }

    @Test func theTokenSetsANewPasswordOnceAndEndsEverySession() throws {
        let (harness, token) = try Self.verifiedUser()
        let otherDevice = try harness.login("forgetful").token
        #expect(try Self.request(harness, "forgetful@example.org").status == 202)
        let resetToken = try harness.resetToken(sentTo: "forgetful@example.org", number: 2)

        let confirmed = try harness.send(
            .post, "/users/password-reset/confirm", json: ["token": resetToken, "newPassword": "a brand new secret"],
            userAgent: "PastNYC/2.1 iOS")
        #expect(confirmed.status == 200)
        #expect(confirmed.headers["Cache-Control"] == "no-store")
        #expect(confirmed.user["username"] as? String == "forgetful")
        #expect(confirmed.json["expiresAt"] is String)
        let fresh = confirmed.token
        #expect(try harness.send(.get, "/users/me", token: fresh).status == 200)
        #expect(try harness.send(.get, "/users/me", token: token).status == 401)
        #expect(try harness.send(.get, "/users/me", token: otherDevice).status == 401)
        #expect(try harness.login("forgetful").status == 401)
        #expect(try harness.login("forgetful", password: "a brand new secret").status == 200)
        let sessions = try harness.send(.get, "/users/me/sessions", token: fresh).json["sessions"] as? [[String: Any]]
        #expect(sessions?.first { $0["current"] as? Bool == true }?["userAgent"] as? String == "PastNYC/2.1 iOS")

        let reused = try Self.confirm(harness, token: resetToken, password: "yet another secret")
        #expect(reused.status == 400)
        #expect(reused.detail?.hasPrefix("token does not work") == true)
    }

    @Test func aRefusedPasswordLeavesTheTokenGood() throws {
        let (harness, _) = try Self.verifiedUser()
        #expect(try Self.request(harness, "forgetful@example.org").status == 202)
        let resetToken = try harness.resetToken(sentTo: "forgetful@example.org", number: 2)
        let common = try Self.confirm(harness, token: resetToken, password: "password")
        #expect(common.status == 400 && common.detail?.hasPrefix("newPassword") == true)
        let short = try Self.confirm(harness, token: resetToken, password: "short")
        #expect(short.status == 400 && short.detail?.hasPrefix("newPassword") == true)
        #expect(try Self.confirm(harness, token: resetToken).status == 200)
    }

    @Test(arguments: ["", "not a token", String(repeating: "A", count: 43)])
    func aTokenNeverSentIs400NamingIt(token: String) throws {
        let (harness, _) = try Self.verifiedUser()
        let refused = try Self.confirm(harness, token: token)
        #expect(refused.status == 400)
        #expect(refused.detail?.hasPrefix("token ") == true)
    }

    @Test func aTokenWorksForThirtyMinutesAndANewerOneVoidsNoOlder() throws {
        let (harness, _) = try Self.verifiedUser()
        #expect(try Self.request(harness, "forgetful@example.org").status == 202)
        let older = try harness.resetToken(sentTo: "forgetful@example.org", number: 2)
        harness.clock.advance(by: 20 * 60)
        #expect(try Self.request(harness, "forgetful@example.org").status == 202)
        let newer = try harness.resetToken(sentTo: "forgetful@example.org", number: 3)
        #expect(older != newer)
        harness.clock.advance(by: 10 * 60)
        #expect(try Self.confirm(harness, token: older).status == 400, "30 minutes after it was sent")
        #expect(try Self.confirm(harness, token: newer).status == 200, "the newer one still works")

        #expect(try Self.request(harness, "forgetful@example.org").status == 202)
        let third = try harness.resetToken(sentTo: "forgetful@example.org", number: 4)
        #expect(try Self.request(harness, "forgetful@example.org").status == 202)
        let fourth = try harness.resetToken(sentTo: "forgetful@example.org", number: 5)
        #expect(try Self.confirm(harness, token: third).status == 200, "an older token works while a newer waits")
        #expect(try Self.confirm(harness, token: fourth).status == 400, "a confirmed reset voids the user's others")
    }

    @Test func atMostFiveResetMessagesAnHourPerAddress() throws {
        let (harness, _) = try Self.verifiedUser()
        for _ in 0..<7 {
            #expect(try Self.request(harness, "forgetful@example.org").status == 202)
        }
        #expect(try harness.mails(to: "forgetful@example.org", count: 6).count == 6, "the code and five resets")
        let rows = try harness.accounts.database.read { connection in
            try connection.queryFirst("SELECT count(*) FROM mail_outbox WHERE kind = 'passwordReset'", []) { $0.int(0) }
        }
        #expect(rows == 5, "past five, nothing was even queued")
        harness.clock.advance(by: 3600)
        #expect(try Self.request(harness, "forgetful@example.org").status == 202)
        _ = try harness.mails(to: "forgetful@example.org", count: 7)
    }

    /// A confirmation hashes the new password: bounded per client address as every hash is.
    @Test func aConfirmationIsAHashLimitedPerClientAddress() throws {
        let (harness, _) = try Self.verifiedUser()
        #expect(try Self.request(harness, "forgetful@example.org").status == 202)
        let resetToken = try harness.resetToken(sentTo: "forgetful@example.org", number: 2)
        let flooder = "203.0.113.92"
        let held = try HeldHashes(2, from: flooder, in: harness.accounts.hasher)
        let refused = try harness.send(
            .post, "/users/password-reset/confirm", json: ["token": resetToken, "newPassword": "a brand new secret"],
            from: flooder)
        #expect(refused.status == 429)
        held.release()
        #expect(try Self.confirm(harness, token: resetToken).status == 200, "the refusal left the token good")
    }

    /// An account's deletion takes its email, codes, reset tokens and unsent mail with it.
    @Test func deletingTheAccountLeavesNoMailRows() throws {
        let (harness, token) = try Self.verifiedUser()
        #expect(try Self.request(harness, "forgetful@example.org").status == 202)
        _ = try harness.resetToken(sentTo: "forgetful@example.org", number: 2)
        #expect(try harness.send(.delete, "/users/me", json: ["password": "correct horse battery"], token: token).status == 204)
        let left = try harness.accounts.database.read { connection in
            try ["email_codes", "password_resets", "mail_outbox"].map { table in
                try connection.queryFirst("SELECT count(*) FROM \(table)", []) { $0.int(0) } ?? -1
            }
        }
        #expect(left == [0, 0, 0])
        #expect(try Self.request(harness, "forgetful@example.org").status == 202)
    }
}
