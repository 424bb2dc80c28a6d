import Testing

@testable import Mail

@Suite struct MailMessageTests {
    static func message(to recipient: String = "reader@example.org", subject: String = "Hello", text: String) -> MailMessage {
        MailMessage(
            from: "no-reply@past-nyc.example", recipient: recipient, content: MailContent(subject: subject, text: text),
            messageID: "<0123456789abcdef@past-nyc.example>", date: 1_800_000_000)
    }

    @Test func anASCIIMessageIsItsHeaderFieldsAndItsLinesEndingInCRLF() {
        let rendered = String(decoding: Self.message(text: "Line one\n\n.a line with a dot").rendered, as: UTF8.self)
        #expect(rendered == """
            Date: Fri, 15 Jan 2027 08:00:00 +0000\r
            From: no-reply@past-nyc.example\r
            To: reader@example.org\r
            Subject: Hello\r
            Message-ID: <0123456789abcdef@past-nyc.example>\r
            MIME-Version: 1.0\r
            Content-Type: text/plain; charset=utf-8\r
            Content-Transfer-Encoding: 7bit\r
            \r
            Line one\r
            \r
            .a line with a dot\r

            """)
    }

    @Test func aBodyBeyondASCIIOrWithALongLineTravelsAsBase64InLinesOf76() throws {
        for text in ["Caf\u{E9} on the Bowery", String(repeating: "x", count: 1200)] {
            let rendered = String(decoding: Self.message(text: text).rendered, as: UTF8.self)
            let parts = rendered.components(separatedBy: "\r\n\r\n")
            try #require(parts.count == 2)
            #expect(parts[0].contains("Content-Transfer-Encoding: base64"))
            let lines = parts[1].split(separator: "\r\n")
            #expect(lines.allSatisfy { $0.count <= 76 })
            #expect(lines.dropLast().allSatisfy { $0.count == 76 })
            #expect(rendered.utf8.allSatisfy { $0 < 0x80 }, "the whole message is ASCII")
        }
    }

    @Test func aSubjectBeyondASCIIIsEncodedWordsThatSplitNoCharacter() {
        let subject = String(repeating: "\u{1F5FD}", count: 20)  // 80 bytes of UTF-8
        let header = MailMessage.headerText(subject)
        let words = header.components(separatedBy: "\r\n ")
        #expect(words.count == 2)
        #expect(words.allSatisfy { $0.hasPrefix("=?utf-8?B?") && $0.hasSuffix("?=") })
        #expect(MailMessage.headerText("Reset your password") == "Reset your password")
    }

    @Test(arguments: [
        ("reader@example.org", true),
        ("first.last+tag@mail.example.org", true),
        ("a,b@example.org", false),
        ("\"quoted\"@example.org", false),
        ("r\u{E9}ader@example.org", false),
        ("reader@example.org>", false),
        (".reader@example.org", false),
        ("reader..x@example.org", false),
    ])
    func onlyAPlainAddressIsWrittenIntoTo(address: String, plain: Bool) {
        #expect(MailMessage.isPlainAddress(address) == plain)
        let rendered = String(decoding: Self.message(to: address, text: "x").rendered, as: UTF8.self)
        #expect(rendered.contains("\r\nTo: " + (plain ? address : "undisclosed-recipients:;") + "\r\n"))
    }

    @Test func retriesWaitTwiceAsLongEachTimeUpToTheirCeiling() {
        let schedule = RetrySchedule(firstMilliseconds: 10_000, maximumMilliseconds: 15 * 60_000)
        #expect((1...8).map(schedule.delay(afterFailures:)) == [10_000, 20_000, 40_000, 80_000, 160_000, 320_000, 640_000, 900_000])
        #expect(schedule.delay(afterFailures: 1_000) == 900_000)
    }

    @Test(arguments: [
        ("smtp://relay.example.org:587", nil),
        ("smtps://user:p%40ss@relay.example.org", nil),
        ("smtp://relay.example.org/past-nyc.example", nil),
        ("http://relay.example.org", "must start with smtp:// or smtps://"),
        ("smtp://", "must name a host"),
        ("smtp://user@:25", "must name a host"),
        ("smtp://relay example.org", "must not contain whitespace or control characters"),
    ] as [(String, String?)])
    func relayURLsAreCheckedAndLoggedWithoutTheirCredentials(url: String, problem: String?) {
        #expect(MailSettings.problem(withURL: url) == problem)
        #expect(!MailSettings(smtpURL: url, from: "a@b").relayDescription.contains("p%40ss"))
    }

    @Test func theMessageIDsDomainIsTheSendersAndTheSenderMustBeBare() {
        #expect(MailSettings(smtpURL: "smtp://relay", from: "no-reply@past-nyc.example").domain == "past-nyc.example")
        #expect(MailSettings.problem(withSender: "no-reply@past-nyc.example") == nil)
        #expect(MailSettings.problem(withSender: "PAST NYC <no-reply@past-nyc.example>") != nil)
        #expect(MailSettings.problem(withSender: "no-reply") != nil)
    }
}
