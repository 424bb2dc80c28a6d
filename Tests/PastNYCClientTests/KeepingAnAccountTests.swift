import Foundation
import PastNYCClient
import Testing

extension EndToEndTests {
    /// Sessions, the email and its code, and the password reset by mail, with the mail
    /// read from the suite's local SMTP server.
    @Suite struct KeepingAnAccount {
        func mailbox() throws -> Mailbox {
            try #require(RunningServer.mailbox, "no mailbox: run the tests in EndToEndTests")
        }

        @Test func sessionsAreListedAndEndedOneByOne() async throws {
            let user = try await TestUser.register("sessions")
            let laptop = try await makeClient()
                .login(body: .json(.init(username: user.username, password: user.password))).ok.body.json
            let listed = try await user.client.listSessions().ok.body.json.sessions
            #expect(listed.count == 2)
            #expect(listed.filter(\.current).count == 1)
            #expect(listed.allSatisfy { $0.expiresAt > $0.lastUsedAt && $0.lastUsedAt >= $0.createdAt })
            let other = try #require(listed.first { !$0.current })

            let unknown = try await user.client.revokeSession(path: .init(sessionID: "no-such-session"))
            #expect(try unknown.notFound.body.applicationProblemJson.status == 404)
            _ = try await user.client.revokeSession(path: .init(sessionID: other.sessionID)).noContent
            _ = try await makeClient(token: laptop.token).getMe().unauthorized
            #expect(try await user.client.listSessions().ok.body.json.sessions.map(\.sessionID) != listed.map(\.sessionID))
        }

        @Test func anEmailIsVerifiedByTheCodeSentToIt() async throws {
            let user = try await TestUser.register("mailer")
            let address = "\(user.username)@example.org"
            let set = try await user.client.updateProfile(body: .json(.init(email: address))).ok.body.json
            #expect(set.email == address && set.emailVerified == false)
            let code = try #require(try mailbox().line(to: address) { $0.count == 6 && $0.allSatisfy(\.isNumber) })

            let wrong = try await user.client.verifyEmail(body: .json(.init(code: code == "000000" ? "000001" : "000000")))
            #expect(try wrong.badRequest.body.applicationProblemJson.detail.contains("code"))
            let verified = try await user.client.verifyEmail(body: .json(.init(code: code))).ok.body.json
            #expect(verified.emailVerified == true)
            #expect(try await user.client.getMe().ok.body.json.emailVerified == true)
            let again = try await user.client.resendEmailCode()
            #expect(try again.conflict.body.applicationProblemJson.status == 409)

            let taken = try await TestUser.register("second")
            let conflict = try await taken.client.updateProfile(body: .json(.init(email: address.uppercased())))
            #expect(try conflict.conflict.body.applicationProblemJson.status == 409)
        }

        @Test func aResendSendsANewCode() async throws {
            let user = try await TestUser.register("resender")
            let address = "\(user.username)@example.org"
            _ = try await user.client.updateProfile(body: .json(.init(email: address))).ok
            _ = try mailbox().messages(to: address)
            let accepted = try await user.client.resendEmailCode().accepted.body.json
            #expect(!accepted.message.isEmpty)
            let code = try #require(try mailbox().line(to: address, number: 2) { $0.count == 6 && $0.allSatisfy(\.isNumber) })
            #expect(try await user.client.verifyEmail(body: .json(.init(code: code))).ok.body.json.emailVerified == true)
        }

        @Test func aForgottenPasswordIsResetByMail() async throws {
            let user = try await TestUser.register("forgetful")
            let address = "\(user.username)@example.org"
            _ = try await user.client.updateProfile(body: .json(.init(email: address))).ok
            let code = try #require(try mailbox().line(to: address) { $0.count == 6 && $0.allSatisfy(\.isNumber) })
            _ = try await user.client.verifyEmail(body: .json(.init(code: code))).ok

            let anonymous = try makeClient()
            let known = try await anonymous.requestPasswordReset(body: .json(.init(email: address.uppercased()))).accepted.body.json
            let unknown = try await anonymous.requestPasswordReset(body: .json(.init(email: "nobody-\(user.username)@example.org")))
                .accepted.body.json
            #expect(known == unknown, "the same answer for every address")
            let token = try #require(try mailbox().line(to: address, number: 2) { $0.count == 43 && !$0.contains(" ") })

            let weak = try await anonymous.confirmPasswordReset(body: .json(.init(token: token, newPassword: "short")))
            #expect(try weak.badRequest.body.applicationProblemJson.detail.contains("newPassword"))
            let newPassword = "a new walk down the Bowery"
            let signedIn = try await anonymous.confirmPasswordReset(body: .json(.init(token: token, newPassword: newPassword))).ok.body.json
            #expect(signedIn.user.username == user.username)
            _ = try await user.client.getMe().unauthorized
            _ = try await makeClient(token: signedIn.token).getMe().ok
            _ = try await anonymous.login(body: .json(.init(username: user.username, password: newPassword))).ok
            let reused = try await anonymous.confirmPasswordReset(body: .json(.init(token: token, newPassword: "yet another walk")))
            #expect(try reused.badRequest.body.applicationProblemJson.detail.contains("token"))
        }
    }
}
