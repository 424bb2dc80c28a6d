import Foundation
import Logging
import Synchronization
import Testing
import TestSupport
import UserData

@testable import Mail

/// The outbox and its sender on a real store (SQLite, or PostgreSQL with
/// `PAST_NYC_TEST_DATABASE_URL`) against a local SMTP server.
@Suite struct OutboxSenderTests {
    /// Writes "Message <id>"; a row of kind `stale` no longer applies.
    struct Composer: OutboxComposer {
        func compose(_ entry: OutboxEntry, now: Int64, in connection: any UserDataConnection) throws -> MailContent? {
            entry.kind == "stale" ? nil : MailContent(subject: "Message \(entry.id)", text: "to \(entry.recipient)")
        }
    }

    /// A store of the test's own, its settings, and the senders it started (stopped on release).
    final class Fixture {
        let directory: TemporaryDirectory
        let database: TestDatabase?
        let store: any UserDataStore
        let settings: MailSettings
        private(set) var senders: [OutboxSender] = []

        init(sink: SMTPSink) throws {
            directory = try TemporaryDirectory(prefix: "outbox")
            database = try TestDatabase.make()
            store = try UserDataLocation(dataDirectory: directory.path, databaseURL: database?.url).openStore()
            var settings = MailSettings(smtpURL: "smtp://127.0.0.1:\(sink.port)", from: "no-reply@past-nyc.example")
            settings.retry = RetrySchedule(firstMilliseconds: 50, maximumMilliseconds: 200)
            settings.pollMilliseconds = 200
            self.settings = settings
        }

        deinit {
            for sender in senders { sender.stop() }
        }

        /// A sender with an outbox of its own (its own doorbell), as an instance has.
        func startSender() throws -> Outbox {
            let outbox = Outbox(settings: settings)
            var logger = Logger(label: "outbox-tests")
            logger.logLevel = .critical
            let sender = OutboxSender(store: store, outbox: outbox, composer: Composer(), logger: logger)
            try sender.start()
            senders.append(sender)
            return outbox
        }

        func enqueue(_ count: Int, kind: String = "test", with outbox: Outbox, firstRecipient: Int = 0) throws {
            let now = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
            try store.write { connection in
                for index in 0..<count {
                    try outbox.enqueue(
                        kind: kind, userID: nil, recipient: "reader\(firstRecipient + index)@example.org", now: now,
                        in: connection)
                }
            }
            outbox.announce()
        }

        /// `(outcome, attempts)` of every row, by id.
        func rows() throws -> [(outcome: String?, attempts: Int)] {
            try store.read { connection in
                try connection.query("SELECT outcome, attempts FROM mail_outbox ORDER BY id", []) {
                    ($0.optionalText(0), $0.int(1))
                }
            }
        }

        /// Waits until every row is finished (checking every 20 ms, for at most 30 s).
        func waitUntilFinished() throws -> [(outcome: String?, attempts: Int)] {
            let deadline = ContinuousClock.now + .seconds(30)
            while true {
                let rows = try rows()
                if rows.allSatisfy({ $0.outcome != nil }) || ContinuousClock.now > deadline { return rows }
                usleep(20_000)
            }
        }
    }

    @Test func everyMessageGoesOutOnceWithItsOwnMessageID() throws {
        let sink = try SMTPSink()
        let fixture = try Fixture(sink: sink)
        let outbox = try fixture.startSender()
        try fixture.enqueue(5, with: outbox)
        let received = try sink.waitForMessages(count: 5)
        #expect(try fixture.waitUntilFinished().map(\.outcome) == Array(repeating: "sent", count: 5))
        #expect(Set(received.compactMap { $0.header("Message-ID") }).count == 5)
        #expect(received.map(\.recipients) == (0..<5).map { ["reader\($0)@example.org"] })
        #expect(received.allSatisfy { $0.header("Message-ID")?.hasSuffix("@past-nyc.example>") == true })
        #expect(try sink.messages().count == 5)
    }

    /// The relay is down for a while: the messages wait, tried again and again, and go
    /// out once it is back, each once.
    @Test func aRelayDownForAWhileDelaysTheMailAndLosesNone() throws {
        let sink = try SMTPSink()
        sink.stop()
        let fixture = try Fixture(sink: sink)
        let outbox = try fixture.startSender()
        try fixture.enqueue(3, with: outbox)
        let deadline = ContinuousClock.now + .seconds(30)
        while try fixture.rows().first?.attempts ?? 0 < 3, ContinuousClock.now < deadline { usleep(20_000) }
        let waiting = try fixture.rows()
        #expect(waiting.allSatisfy { $0.outcome == nil }, "nothing is given up")
        #expect(waiting[0].attempts >= 3, "tried again and again")

        try sink.start()
        let received = try sink.waitForMessages(count: 3)
        #expect(try fixture.waitUntilFinished().map(\.outcome) == ["sent", "sent", "sent"])
        #expect(Set(received.compactMap { $0.header("Message-ID") }).count == 3)
        #expect(try sink.messages().count == 3)
    }

    @Test func aPermanentRefusalFinishesItsMessageAndHoldsUpNoOther() throws {
        let sink = try SMTPSink(refuse: "reader1@")
        let fixture = try Fixture(sink: sink)
        let outbox = try fixture.startSender()
        try fixture.enqueue(3, with: outbox)
        try fixture.enqueue(1, kind: "stale", with: outbox, firstRecipient: 3)
        #expect(try fixture.waitUntilFinished().map { $0.outcome } == ["sent", "refused", "sent", "superseded"])
        #expect(try sink.messages().map(\.recipients) == [["reader0@example.org"], ["reader2@example.org"]])
        let error = try fixture.store.read { connection in
            try connection.queryFirst("SELECT last_error FROM mail_outbox WHERE outcome = 'refused'", []) { $0.optionalText(0) }
        }
        #expect(error??.contains("550") == true)
    }

    /// Two instances on one store: every message is claimed, so sent, by one of them.
    @Test func twoSendersOnOneStoreSendEachMessageOnce() throws {
        let sink = try SMTPSink()
        let fixture = try Fixture(sink: sink)
        let first = try fixture.startSender()
        let second = try fixture.startSender()
        for round in 0..<8 {
            try fixture.enqueue(5, with: round % 2 == 0 ? first : second, firstRecipient: round * 5)
            second.announce()
            first.announce()
        }
        let received = try sink.waitForMessages(count: 40)
        #expect(try fixture.waitUntilFinished().allSatisfy { $0.outcome == "sent" && $0.attempts == 1 })
        #expect(received.count == 40)
        #expect(Set(received.compactMap { $0.header("Message-ID") }).count == 40)
    }
}
