import Foundation
import TestSupport

/// Reading the account mail the harness's `sink` received.
extension AccountsHarness {
    enum MailError: Error {
        case noMailServer
        case nothingFound(String)
    }

    /// Every message sent to `address`, once at least `count` arrived.
    func mails(to address: String, count: Int = 1) throws -> [ReceivedMail] {
        guard let sink else { throw MailError.noMailServer }
        return try sink.waitForMessages(count: count, to: address)
    }

    /// The 6-digit code of the `number`-th message (from 1) sent to `address`.
    func code(sentTo address: String, number: Int = 1) throws -> String {
        let text = try mails(to: address, count: number)[number - 1].text
        let line = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.count == 6 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
        guard let line else { throw MailError.nothingFound("no code in: \(text)") }
        return line
    }

    /// The reset token of the `number`-th message (from 1) sent to `address`.
    func resetToken(sentTo address: String, number: Int = 1) throws -> String {
        let text = try mails(to: address, count: number)[number - 1].text
        let line = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.count == 43 && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") } }
        guard let line else { throw MailError.nothingFound("no token in: \(text)") }
        return line
    }

    /// The code of the last message sent to `address`, once the outbox holds nothing
    /// unsent (a code asked for before a newer one is never sent: the newer voids it).
    func latestCode(sentTo address: String) throws -> String {
        let deadline = ContinuousClock.now + .seconds(30)
        while try accounts.database.read({ connection in
            try connection.queryFirst("SELECT count(*) FROM mail_outbox WHERE finished_at IS NULL", []) { $0.int(0) } ?? 0
        }) > 0, ContinuousClock.now < deadline {
            usleep(20_000)
        }
        guard let sink else { throw MailError.noMailServer }
        return try code(sentTo: address, number: try sink.messages().filter { $0.recipients.contains(address) }.count)
    }

    /// `PATCH /users/me {"email": address}` (`nil`: `null`).
    func setEmail(_ address: String?, token: String, from remoteAddress: String = "192.0.2.1") throws -> TestResponse {
        try send(.patch, "/users/me", json: ["email": address ?? NSNull()], token: token, from: remoteAddress)
    }

    /// Sets `address` and verifies it with the code it receives (the `codeNumber`-th to it).
    func verify(_ address: String, token: String, codeNumber: Int = 1) throws -> TestResponse {
        let set = try setEmail(address, token: token)
        guard set.status == 200 else { return set }
        return try send(.post, "/users/me/email/verify", json: ["code": try code(sentTo: address, number: codeNumber)], token: token)
    }
}
