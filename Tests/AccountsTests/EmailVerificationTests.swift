import Foundation
import HTTPServer
import Testing
import TestSupport

@testable import Accounts

/// The optional email and its 6-digit code (contract: Keeping an account, Email), with
/// the mail read from a local SMTP server. On SQLite, or PostgreSQL with
/// `PAST_NYC_TEST_DATABASE_URL`.
@Suite struct EmailVerificationTests {
    static func mailing() throws -> AccountsHarness {
        var options = AccountsHarness.Options()
        options.sendsMail = true
        return try AccountsHarness(options)
    }

    @Test func withoutARelayAnEmailIsRefusedNamingIt() throws {
        let harness = try AccountsHarness()
        let token = try harness.register("offline")
        let refused = try harness.setEmail("offline@example.org", token: token)
        #expect(refused.status == 400)
        #expect(refused.detail == "email cannot be set: this server sends no mail")
        #expect(try harness.setEmail(nil, token: token).status == 200, "removing one needs no mail")
        #expect(try harness.send(.post, "/users/me/email/verify/resend", token: token).status == 400)
    }

    @Test(arguments: [
        (String(repeating: "a", count: 243) + "@example.org", "email must be at most 254 characters long"),
        ("no-at-sign.example.org", "email must hold exactly one @ with text on both sides"),
        ("two@at@example.org", "email must hold exactly one @ with text on both sides"),
        ("@example.org", "email must hold exactly one @ with text on both sides"),
        ("reader@", "email must hold exactly one @ with text on both sides"),
        ("read er@example.org", "email must not contain whitespace or control characters"),
        ("reader@example.org\u{7}", "email must not contain whitespace or control characters"),
    ])
    func aBadAddressIs400NamingEmail(address: String, detail: String) throws {
        let harness = try Self.mailing()
        let token = try harness.register("typist")
        let response = try harness.setEmail(address, token: token)
        #expect(response.status == 400)
        #expect(response.detail == detail)
        let number = try harness.send(.patch, "/users/me", json: ["email": 42], token: token)
        #expect(number.status == 400 && number.detail == "email must be a string or null, not a number")
    }

    @Test func anAddressIsUnverifiedUntilItsCodeComesBack() throws {
        let harness = try Self.mailing()
        let token = try harness.register("reader")
        let set = try harness.setEmail("Reader@Example.org", token: token)
        #expect(set.status == 200)
        #expect(set.json["email"] as? String == "Reader@Example.org")
        #expect(set.json["emailVerified"] as? Bool == false)
        let mail = try #require(try harness.mails(to: "Reader@Example.org").first)
        #expect(mail.header("Subject") == "Your PAST NYC verification code")
        #expect(mail.header("From") == "no-reply@past-nyc.example")
        #expect(mail.text.contains("\"reader\""), "names the account")
        let code = try harness.code(sentTo: "Reader@Example.org")
        let wrong = code == "000000" ? "000001" : "000000"

        let refused = try harness.send(.post, "/users/me/email/verify", json: ["code": wrong], token: token)
        #expect(refused.status == 400)
        #expect(refused.detail == "code is wrong (4 more tries with this code)")
        let verified = try harness.send(.post, "/users/me/email/verify", json: ["code": code], token: token)
        #expect(verified.status == 200)
        #expect(verified.json["emailVerified"] as? Bool == true)
        #expect(try harness.send(.get, "/users/me", token: token).json["emailVerified"] as? Bool == true)
        let again = try harness.send(.post, "/users/me/email/verify", json: ["code": code], token: token)
        #expect(again.status == 409 && again.detail == "your email address is verified already")
        #expect(try harness.send(.post, "/users/me/email/verify/resend", token: token).status == 409)
        // The same address in another case changes how it is written, not whether it is verified.
        let recased = try harness.setEmail("reader@example.org", token: token)
        #expect(recased.json["email"] as? String == "reader@example.org" && recased.json["emailVerified"] as? Bool == true)
    }

    @Test(arguments: ["12345", "1234567", "12345a", "１２３４５６", ""])
    func aCodeThatIsNotSixDigitsIs400AndNotCounted(code: String) throws {
        let harness = try Self.mailing()
        let token = try harness.register("fumbler")
        try #require(try harness.setEmail("fumbler@example.org", token: token).status == 200)
        for _ in 0..<6 {
            let refused = try harness.send(.post, "/users/me/email/verify", json: ["code": code], token: token)
            #expect(refused.status == 400 && refused.detail == "code must be a string of 6 digits")
        }
        let number = try harness.send(.post, "/users/me/email/verify", json: ["code": 123456], token: token)
        #expect(number.status == 400 && number.detail == "code must be a string")
        let right = try harness.code(sentTo: "fumbler@example.org")
        #expect(try harness.send(.post, "/users/me/email/verify", json: ["code": right], token: token).status == 200)
    }

    @Test func fiveWrongCodesVoidTheCodeAndANewOneVoidsTheOld() throws {
        let harness = try Self.mailing()
        let token = try harness.register("guesser")
        try #require(try harness.setEmail("guesser@example.org", token: token).status == 200)
        let first = try harness.code(sentTo: "guesser@example.org")
        let wrong = first == "999999" ? "999998" : "999999"
        for left in (0..<5).reversed() {
            let refused = try harness.send(.post, "/users/me/email/verify", json: ["code": wrong], token: token)
            #expect(refused.status == 400 && refused.detail?.hasPrefix("code is wrong") == true, "\(left)")
        }
        let void = try harness.send(.post, "/users/me/email/verify", json: ["code": first], token: token)
        #expect(void.status == 400)
        #expect(void.detail?.hasPrefix("code does not work") == true)

        #expect(try harness.send(.post, "/users/me/email/verify/resend", token: token).status == 202)
        let second = try harness.code(sentTo: "guesser@example.org", number: 2)
        #expect(try harness.send(.post, "/users/me/email/verify/resend", token: token).status == 202)
        let third = try harness.code(sentTo: "guesser@example.org", number: 3)
        if second != third {
            #expect(try harness.send(.post, "/users/me/email/verify", json: ["code": second], token: token).status == 400)
        }
        #expect(try harness.send(.post, "/users/me/email/verify", json: ["code": third], token: token).status == 200)
    }

    @Test func atMostFiveCodesAnHourThePatchsIncluded() throws {
        let harness = try Self.mailing()
        let token = try harness.register("impatient")
        try #require(try harness.setEmail("impatient@example.org", token: token).status == 200)
        for _ in 0..<4 {
            harness.clock.advance(by: 60)
            #expect(try harness.send(.post, "/users/me/email/verify/resend", token: token).status == 202)
        }
        let refused = try harness.send(.post, "/users/me/email/verify/resend", token: token)
        #expect(refused.status == 429)
        #expect(refused.headers["Retry-After"] == String(3600 - 4 * 60))
        let patch = try harness.setEmail("other@example.org", token: token)
        #expect(patch.status == 429, "a new address is a code too")
        #expect(harness.refusals.counts[RefusalRule("verification-codes")] == 2)
        #expect(try harness.send(.get, "/users/me", token: token).json["email"] as? String == "impatient@example.org", "nothing changed")
        let queued = try harness.accounts.database.read { connection in
            try connection.queryFirst("SELECT count(*) FROM mail_outbox WHERE kind = 'emailVerification'", []) { $0.int(0) }
        }
        #expect(queued == 5, "the refused ones queued nothing")
        harness.clock.advance(by: 3600 - 4 * 60)
        #expect(try harness.send(.post, "/users/me/email/verify/resend", token: token).status == 202)
        let latest = try harness.latestCode(sentTo: "impatient@example.org")
        #expect(try harness.send(.post, "/users/me/email/verify", json: ["code": latest], token: token).status == 200)
    }

    @Test func aCodeWorksForAnHourAfterItIsSent() throws {
        let harness = try Self.mailing()
        let token = try harness.register("slowpoke")
        try #require(try harness.setEmail("slowpoke@example.org", token: token).status == 200)
        let code = try harness.code(sentTo: "slowpoke@example.org")
        harness.clock.advance(by: 3600)
        let late = try harness.send(.post, "/users/me/email/verify", json: ["code": code], token: token)
        #expect(late.status == 400 && late.detail?.hasPrefix("code does not work") == true)
    }

    @Test func aVerifiedAddressBelongsToOneAccountTheFirstToVerifyIt() throws {
        let harness = try Self.mailing()
        let first = try harness.register("first")
        let second = try harness.register("second")
        try #require(try harness.setEmail("shared@example.org", token: first).status == 200)
        try #require(try harness.setEmail("SHARED@example.org", token: second).status == 200, "both may hold it unverified")
        let secondCode = try harness.code(sentTo: "SHARED@example.org")
        let firstCode = try harness.code(sentTo: "shared@example.org")
        #expect(try harness.send(.post, "/users/me/email/verify", json: ["code": firstCode], token: first).status == 200)

        let lost = try harness.send(.post, "/users/me/email/verify", json: ["code": secondCode], token: second)
        #expect(lost.status == 409)
        #expect(lost.detail == "email is the verified address of another account")
        #expect(lost.detail?.contains("first") == false, "without saying which")
        let third = try harness.register("third")
        #expect(try harness.setEmail("Shared@Example.org", token: third).status == 409)

        // Removed, it is free again (the first message to it was the first's code, the
        // second the notice of its removal).
        #expect(try harness.setEmail(nil, token: first).status == 200)
        #expect(try harness.verify("shared@example.org", token: third, codeNumber: 3).status == 200)
    }

    @Test func resendWithoutAnEmailIs409() throws {
        let harness = try Self.mailing()
        let token = try harness.register("blank")
        let refused = try harness.send(.post, "/users/me/email/verify/resend", token: token)
        #expect(refused.status == 409)
        #expect(refused.detail == "you have no email address to verify; set one with PATCH /users/me")
        #expect(try harness.send(.post, "/users/me/email/verify", json: ["code": "123456"], token: token).status == 409)
        #expect(try harness.send(.post, "/users/me/email/verify", json: ["code": "123456", "extra": 1], token: token).status == 400)
    }

    /// Replacing a verified address tells it, and its reset tokens stop working.
    @Test func replacingAVerifiedAddressTellsIt() throws {
        let harness = try Self.mailing()
        let token = try harness.register("mover")
        #expect(try harness.verify("old@example.org", token: token).status == 200)
        #expect(try harness.send(.post, "/users/password-reset", json: ["email": "old@example.org"]).status == 202)
        let resetToken = try harness.resetToken(sentTo: "old@example.org", number: 2)
        #expect(try harness.setEmail("new@example.org", token: token).status == 200)
        let notice = try harness.mails(to: "old@example.org", count: 3)[2]
        #expect(notice.header("Subject") == "The email address of your PAST NYC account changed")
        let confirm = try harness.send(
            .post, "/users/password-reset/confirm", json: ["token": resetToken, "newPassword": "a brand new secret"])
        #expect(confirm.status == 400, "a reset sent to the old address no longer works")
        #expect(try harness.mails(to: "new@example.org").count == 1, "the new one gets its code")
    }
}
