import Foundation
import Testing
import TestSupport

@testable import Mail

/// libcurl's SMTP against a local aiosmtpd (`SMTPSink`).
@Suite struct SMTPClientTests {
    static func message(to recipient: String, id: String = "<1@past-nyc.example>") -> MailMessage {
        MailMessage(
            from: "no-reply@past-nyc.example", recipient: recipient,
            content: MailContent(subject: "Hello", text: "first line\n.second line starts with a dot"), messageID: id,
            date: 1_800_000_000)
    }

    @Test func theRelayGetsTheEnvelopeAndTheMessageAsWritten() throws {
        let sink = try SMTPSink()
        let client = try SMTPClient(settings: MailSettings(smtpURL: "smtp://127.0.0.1:\(sink.port)", from: "no-reply@past-nyc.example"))
        try client.send(Self.message(to: "reader@example.org"))
        try client.send(Self.message(to: "other@example.org", id: "<2@past-nyc.example>"))
        let received = try sink.waitForMessages(count: 2)
        #expect(received.map(\.mailFrom) == ["no-reply@past-nyc.example", "no-reply@past-nyc.example"])
        #expect(received.map(\.recipients) == [["reader@example.org"], ["other@example.org"]])
        #expect(received.map { $0.header("Message-ID") } == ["<1@past-nyc.example>", "<2@past-nyc.example>"])
        #expect(received[0].text == "first line\n.second line starts with a dot\n", "a leading dot survives the transfer")
        #expect(received.allSatisfy { !$0.tls }, "the sink offers no STARTTLS here")
    }

    @Test func aRecipientTheRelayRefusesIsAPermanentFailure() throws {
        let sink = try SMTPSink(refuse: "nobody")
        let client = try SMTPClient(settings: MailSettings(smtpURL: "smtp://127.0.0.1:\(sink.port)", from: "no-reply@past-nyc.example"))
        let failure = try #require(throws: SMTPFailure.self) { try client.send(Self.message(to: "nobody@example.org")) }
        #expect(failure.reply == 550)
        #expect(failure.isPermanent && failure.relayAnswered)
        try client.send(Self.message(to: "somebody@example.org"))
        #expect(try sink.messages().count == 1)
    }

    @Test func aRelayThatIsDownIsAnOutageToRetry() throws {
        let sink = try SMTPSink()
        sink.stop()
        let client = try SMTPClient(settings: MailSettings(smtpURL: "smtp://127.0.0.1:\(sink.port)", from: "no-reply@past-nyc.example"))
        let failure = try #require(throws: SMTPFailure.self) { try client.send(Self.message(to: "reader@example.org")) }
        #expect(failure.reply == 0)
        #expect(!failure.isPermanent && !failure.relayAnswered)
        try sink.start()
        try client.send(Self.message(to: "reader@example.org"))
        #expect(try sink.messages().count == 1)
    }

    /// STARTTLS when the relay offers it, its certificate verified: against the given
    /// authorities it works; against the system's, which do not know it, nothing is sent.
    @Test func smtpUsesSTARTTLSWhenOfferedAndVerifiesTheRelay() throws {
        let keys = try TemporaryDirectory(prefix: "smtp-tls")
        let certificate = keys.file("relay.pem"), key = keys.file("relay.key")
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        openssl.arguments = [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", certificate,
        ]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        try #require(openssl.terminationStatus == 0)
        let sink = try SMTPSink(tls: (certificate, key))

        var settings = MailSettings(smtpURL: "smtp://127.0.0.1:\(sink.port)", from: "no-reply@past-nyc.example")
        let untrusting = try SMTPClient(settings: settings)
        let failure = try #require(throws: SMTPFailure.self) { try untrusting.send(Self.message(to: "reader@example.org")) }
        #expect(!failure.isPermanent && !failure.relayAnswered)
        #expect(try sink.messages().isEmpty)

        settings.certificateAuthorities = certificate
        try SMTPClient(settings: settings).send(Self.message(to: "reader@example.org"))
        #expect(try sink.waitForMessages(count: 1).map(\.tls) == [true])
    }
}
