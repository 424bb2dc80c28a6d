import Foundation

/// A local SMTP server that the suite's server sends its mail to: the repository's
/// `scripts/smtp-sink.py` (aiosmtpd), which keeps each message it accepts as a JSON
/// file in `folder`; the tests read the codes and reset tokens there. `@unchecked
/// Sendable`: its `Process` is started in `init` and only stopped after, by the one
/// server that owns the mailbox; the tests only read the folder.
final class Mailbox: @unchecked Sendable {
    enum MailboxError: Error, CustomStringConvertible {
        case exitedBeforeListening
        case noMessage(to: String)

        var description: String {
            switch self {
            case .exitedBeforeListening: "scripts/smtp-sink.py did not start (is aiosmtpd installed? pip install aiosmtpd)"
            case .noMessage(let recipient): "no message to \(recipient) within 30 s"
            }
        }
    }

    let port: Int
    private let folder: URL
    private let process: Process

    init(folder: URL, repositoryRoot: URL) throws {
        self.folder = folder
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", repositoryRoot.appendingPathComponent("scripts/smtp-sink.py").path, folder.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The one line it prints once it listens: `port=<n>`.
        var line: [UInt8] = []
        while let byte = try output.fileHandleForReading.read(upToCount: 1)?.first, byte != UInt8(ascii: "\n") {
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("port="), let port = Int(text.dropFirst("port=".count)) else {
            process.terminate()
            throw MailboxError.exitedBeforeListening
        }
        self.port = port
    }

    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// The bodies of the messages sent to `recipient`, oldest first, once at least `count`
    /// arrived (checking every 20 ms, for at most 30 s).
    func messages(to recipient: String, count: Int = 1) async throws -> [String] {
        let deadline = Date().addingTimeInterval(30)
        while true {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            let bodies = try names.filter { $0.hasSuffix(".json") }.sorted().compactMap { name -> String? in
                let record = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent(name)))
                guard let record = record as? [String: Any], let recipients = record["recipients"] as? [String],
                    recipients.contains(recipient), let data = record["data"] as? String
                else { return nil }
                return data.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
            }
            if bodies.count >= count { return bodies }
            guard Date() < deadline else { throw MailboxError.noMessage(to: recipient) }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The first line of the `number`-th message (from 1) to `recipient` that `matches`, trimmed.
    func line(to recipient: String, number: Int = 1, where matches: (String) -> Bool) async throws -> String? {
        let body = try await messages(to: recipient, count: number)[number - 1]
        return body.components(separatedBy: "\r\n").map { $0.trimmingCharacters(in: .whitespaces) }.first(where: matches)
    }
}
