import Foundation
import TestSupport

/// Where the suite's server sends its mail: TestSupport's `SMTPSink` (the repository's
/// `scripts/smtp-sink.py`), read as an app's user reads their mail, for the codes and
/// reset tokens. `@unchecked Sendable`: the sink is started before the suite and stopped
/// after it by the one `RunningServer` scope; the tests only read what it received.
final class Mailbox: @unchecked Sendable {
    let sink: SMTPSink

    init() throws {
        sink = try SMTPSink()
    }

    /// The bodies of the messages sent to `recipient`, oldest first, once at least `count`
    /// arrived (for at most 30 s).
    func messages(to recipient: String, count: Int = 1) throws -> [String] {
        try sink.waitForMessages(count: count, to: recipient).map(\.text)
    }

    /// The first line of the `number`-th message (from 1) to `recipient` that `matches`, trimmed.
    func line(to recipient: String, number: Int = 1, where matches: (String) -> Bool) throws -> String? {
        let body = try messages(to: recipient, count: number)[number - 1]
        return body.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first(where: matches)
    }
}
