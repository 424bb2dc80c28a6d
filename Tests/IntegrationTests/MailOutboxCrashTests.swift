import Foundation
import SQLite
import Testing
import TestSupport

/// The mail outbox of the real executable under `kill -9`: a password reset
/// acknowledged just before the kill, while the relay is down, is delivered after the
/// restart, exactly once, and its token works.
@Suite(.serialized) struct MailOutboxCrashTests {
    static func arguments(dataDirectory: String, relayPort: Int) -> [String] {
        let root = PackageRoot.path
        return [
            "--data-dir", dataDirectory, "--source-dir", root + "/Data", "--openapi", root + "/openapi.yaml",
            "--web-dir", root + "/Web", "--smtp-url", "smtp://127.0.0.1:\(relayPort)", "--mail-from", "no-reply@past-nyc.example",
        ]
    }

    @Test func aResetAskedForJustBeforeKill9IsDeliveredOnceAfterTheRestart() throws {
        let directory = try TemporaryDirectory(prefix: "mail-crash")
        try SharedCatalog.copy(into: directory.path)
        let sink = try SMTPSink()
        var server = try ServerProcess(arguments: Self.arguments(dataDirectory: directory.path, relayPort: sink.port))
        let user = try SignedInClient(port: server.port, username: "forgetful")
        let set = try user.send("PATCH", "/users/me", body: #"{"email":"forgetful@example.org"}"#)
        try #require(set.status == 200, "\(set.bodyText)")
        let code = try Self.line(of: try #require(try sink.waitForMessages(count: 1).first).text) { $0.count == 6 && $0.allSatisfy(\.isNumber) }
        let verified = try user.send("POST", "/users/me/email/verify", body: #"{"code":"\#(code)"}"#)
        try #require(verified.status == 200, "\(verified.bodyText)")

        // The relay goes down; the reset is acknowledged, then the server is killed.
        sink.stop()
        let asked = try RawHTTPClient(port: server.port).requestJSON(
            "POST", "/users/password-reset", json: #"{"email":"forgetful@example.org"}"#)
        try #require(asked.status == 202)
        server.kill9()

        try sink.start()
        server = try ServerProcess(arguments: Self.arguments(dataDirectory: directory.path, relayPort: sink.port))
        let received = try sink.waitForMessages(count: 2)
        let resets = received.filter { $0.header("Subject") == "Reset your PAST NYC password" }
        #expect(resets.count == 1)
        #expect(resets.first?.recipients == ["forgetful@example.org"])

        // Every row of the outbox is finished as sent: nothing is left to send again.
        let database = try SQLiteConnection(path: directory.path + "/accounts.sqlite", mode: .readOnly)
        let outcomes = try database.query("SELECT kind, outcome FROM mail_outbox ORDER BY id") { "\($0.text(0)) \($0.optionalText(1) ?? "pending")" }
        #expect(outcomes == ["emailVerification sent", "passwordReset sent"])
        #expect(try sink.messages().count == 2)

        let token = try Self.line(of: try #require(resets.first).text) { $0.count == 43 && !$0.contains(" ") }
        let confirmed = try RawHTTPClient(port: server.port).requestJSON(
            "POST", "/users/password-reset/confirm", json: #"{"token":"\#(token)","newPassword":"a new walk down the Bowery"}"#)
        #expect(confirmed.status == 200, "\(confirmed.bodyText)")
        server.stop()
    }

    /// The first line of a message's text, trimmed, that `matches`.
    static func line(of text: String, where matches: (String) -> Bool) throws -> String {
        let line = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first(where: matches)
        return try #require(line, "\(text)")
    }
}
