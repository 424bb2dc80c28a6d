import Basics
import Dispatch
import Foundation
import Glibc
import Synchronization

/// A local SMTP server for tests: `scripts/smtp-sink.py` (aiosmtpd) as a child process
/// on 127.0.0.1, keeping each message it accepts as a file that `messages()` reads.
/// `stop()` and `start()` take it down and bring it back on the same port, with the
/// messages kept, for the tests of a relay that is down for a while. Stopped on release.
///
/// Not `Sendable`: one test drives it.
public final class SMTPSink {
    /// The port it listens on, the same across restarts.
    public private(set) var port = 0
    private let folder: TemporaryDirectory
    private let refuse: String?
    private let tls: (certificate: String, key: String)?
    private var process: Process?

    /// Starts it on a port the kernel picks.
    /// - Parameters:
    ///   - refuse: RCPT TO of an address starting with it is answered 550.
    ///   - tls: a certificate and key (PEM files) to offer STARTTLS with.
    public init(refuse: String? = nil, tls: (certificate: String, key: String)? = nil) throws {
        folder = try TemporaryDirectory(prefix: "smtp-sink")
        self.refuse = refuse
        self.tls = tls
        try start()
    }

    deinit {
        stop()
    }

    public enum SinkError: Error, CustomStringConvertible {
        case exitedBeforeListening(output: String)
        case timedOut(expected: Int, received: Int)

        public var description: String {
            switch self {
            case .exitedBeforeListening(let output): "the SMTP sink exited before listening: \(output)"
            case .timedOut(let expected, let received): "expected \(expected) messages, received \(received)"
            }
        }
    }

    /// Starts it (again, on the same port once it had one); returns once it listens.
    public func start() throws {
        guard process == nil else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["python3", PackageRoot.path + "/scripts/smtp-sink.py", folder.path + "/messages", "--port", String(port)]
            + (refuse.map { ["--refuse", $0] } ?? []) + (tls.map { ["--tls", $0.certificate, $0.key] } ?? [])
        let output = Pipe()
        process.standardOutput = output
        // A file, not a pipe: nobody reads it while the sink runs, and a full pipe would stop it.
        let log = folder.path + "/sink.log"
        guard FileManager.default.createFile(atPath: log, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        process.standardError = FileHandle(forWritingAtPath: log)
        try process.run()
        let line = output.fileHandleForReading.readLine()
        guard let line, line.hasPrefix("port="), let port = Int(line.dropFirst("port=".count)) else {
            process.waitUntilExit()
            throw SinkError.exitedBeforeListening(output: (line ?? "") + ((try? String(contentsOfFile: log, encoding: .utf8)) ?? ""))
        }
        self.port = port
        self.process = process
    }

    /// Stops it (SIGTERM) and waits for its exit: the port refuses connections until `start()`.
    public func stop() {
        guard let process else { return }
        self.process = nil
        process.terminate()
        process.waitUntilExit()
    }

    /// Every message accepted so far, in the order accepted.
    public func messages() throws -> [ReceivedMail] {
        let directory = folder.path + "/messages"
        guard FileManager.default.fileExists(atPath: directory) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }.sorted()
            .map { try ReceivedMail(json: Data(contentsOf: URL(fileURLWithPath: directory + "/" + $0))) }
    }

    /// Waits until at least `count` messages (to `recipient`, when given) were accepted
    /// (checking every 20 ms, for at most `timeout`), and returns them all.
    public func waitForMessages(count: Int, to recipient: String? = nil, timeout: Duration = .seconds(30)) throws -> [ReceivedMail] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let received = try messages().filter { message in recipient.map { message.recipients.contains($0) } ?? true }
            if received.count >= count { return received }
            guard ContinuousClock.now < deadline else { throw SinkError.timedOut(expected: count, received: received.count) }
            usleep(20_000)
        }
    }
}

/// One message the sink accepted: its envelope, and its text split into header fields and body.
public struct ReceivedMail: Sendable {
    public let mailFrom: String
    public let recipients: [String]
    /// The message as received (CRLF lines, dot-stuffing undone).
    public let data: String
    /// Whether it came over TLS (STARTTLS).
    public let tls: Bool

    init(json: Data) throws {
        guard let object = try JSONSerialization.jsonObject(with: json) as? [String: Any],
            let mailFrom = object["mailFrom"] as? String, let recipients = object["recipients"] as? [String],
            let data = object["data"] as? String, let tls = object["tls"] as? Bool
        else { throw CocoaError(.fileReadCorruptFile) }
        self.mailFrom = mailFrom
        self.recipients = recipients
        self.data = data
        self.tls = tls
    }

    private var parts: (head: Substring, body: Substring) {
        guard let end = data.range(of: "\r\n\r\n") else { return (data[...], "") }
        return (data[..<end.lowerBound], data[end.upperBound...])
    }

    /// The first header field called `name` (any case), unfolded.
    public func header(_ name: String) -> String? {
        let unfolded = parts.head.replacingOccurrences(of: "\r\n ", with: " ").replacingOccurrences(of: "\r\n\t", with: " ")
        for line in unfolded.components(separatedBy: "\r\n") {
            guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == name.lowercased() else { continue }
            return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    /// The body as text, its transfer encoding (7bit or base64) undone, lines ending in "\n".
    public var text: String {
        let body = String(parts.body)
        guard header("Content-Transfer-Encoding")?.lowercased() == "base64" else {
            return body.replacingOccurrences(of: "\r\n", with: "\n")
        }
        let decoded = Base64.standard.decode(body.replacingOccurrences(of: "\r\n", with: "")) ?? []
        return String(decoding: decoded, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
    }
}

extension FileHandle {
    /// The next line (without its newline), nil at end of file; reads a byte at a time,
    /// for the one line a child prints when it is ready.
    fileprivate func readLine() -> String? {
        var bytes: [UInt8] = []
        while true {
            let data = readData(ofLength: 1)
            guard let byte = data.first else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }
}
