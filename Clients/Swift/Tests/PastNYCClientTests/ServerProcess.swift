import Foundation
import Synchronization

/// The real `past-nyc serve`, from the binary that `PAST_NYC_SERVER` names, on
/// 127.0.0.1 and a free port (`--port 0`; the port is read from its log), with a fresh
/// data directory and cheap password hashing, sending its mail to a local SMTP server
/// (`Mailbox`).
///
/// The server package's TestSupport starts its own build the same way; this package
/// does not depend on the server package, so that it builds alone, as an app's would.
final class ServerProcess {
    enum StartError: Error, CustomStringConvertible {
        case serverNotNamed
        case notExecutable(String)
        case exitedBeforeListening(output: String)

        var description: String {
            switch self {
            case .serverNotNamed:
                "PAST_NYC_SERVER is not set: build the server at the repository root "
                    + "(swift build -c release --product past-nyc) and set "
                    + "PAST_NYC_SERVER=$(swift build -c release --show-bin-path)/past-nyc"
            case .notExecutable(let path): "PAST_NYC_SERVER names no executable: \(path)"
            case .exitedBeforeListening(let output): "the server exited before listening:\n\(output)"
            }
        }
    }

    /// The repository: the catalog's source files and openapi.yaml are read from it.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    let baseURL: URL
    /// Where the server's mail arrives.
    let mailbox: Mailbox
    private let process: Process
    private let dataDirectory: URL

    /// Starts the server and returns once it logs its port (after the first start's
    /// catalog import).
    init() throws {
        guard let executable = ProcessInfo.processInfo.environment["PAST_NYC_SERVER"], !executable.isEmpty else {
            throw StartError.serverNotNamed
        }
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw StartError.notExecutable(executable)
        }
        dataDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("past-nyc-client-\(UUID().uuidString)")
        let root = Self.repositoryRoot.path
        mailbox = try Mailbox(folder: dataDirectory.appendingPathComponent("mail"), repositoryRoot: Self.repositoryRoot)
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [
            "serve", "--host", "127.0.0.1", "--port", "0", "--data-dir", dataDirectory.path,
            "--source-dir", root + "/Data", "--openapi", root + "/openapi.yaml", "--web-dir", root + "/Web",
            "--password-cost", "test", "--log-level", "notice",
            // Every suite runs at once against this one server, all from 127.0.0.1: their
            // registrations hash side by side (more than one address's 2 at once), there are
            // more than one address's 20 an hour, and one test fills a walk's 5,000 points
            // faster than a user's write rate. Those limits alone are lifted; the rest stay
            // as served (the login throttle's test meets its 429).
            "--hashes-per-client", "0", "--registrations-per-hour", "0", "--user-write-rate", "0",
            "--smtp-url", "smtp://127.0.0.1:\(mailbox.port)", "--mail-from", "no-reply@past-nyc.example",
        ]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()

        // Drain stderr for the server's whole life (a full pipe would block its
        // logging); report the first `port=` seen, or nil at end of file.
        let found = DispatchSemaphore(value: 0)
        let state = Mutex<(port: Int?, output: String, reported: Bool)>((nil, "", false))
        let reader = errors.fileHandleForReading
        Thread.detachNewThread {
            while true {
                let data = reader.availableData
                let report = state.withLock { state -> Bool in
                    state.output += String(decoding: data, as: UTF8.self)
                    if state.port == nil, let range = state.output.range(of: #"port=\d+"#, options: .regularExpression) {
                        state.port = Int(state.output[range].dropFirst("port=".count))
                    }
                    guard !state.reported, state.port != nil || data.isEmpty else { return false }
                    state.reported = true
                    return true
                }
                if report { found.signal() }
                if data.isEmpty { return }
            }
        }
        found.wait()
        let (port, output) = state.withLock { ($0.port, $0.output) }
        guard let port else {
            mailbox.stop()
            try? FileManager.default.removeItem(at: dataDirectory)
            throw StartError.exitedBeforeListening(output: output)
        }
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
    }

    /// SIGTERM, waits for the exit, removes the data directory; returns the exit status.
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning {
            process.terminate()
        }
        process.waitUntilExit()
        mailbox.stop()
        try? FileManager.default.removeItem(at: dataDirectory)
        return process.terminationStatus
    }
}
