import Dispatch
import Foundation
import Glibc
import Synchronization

/// The real `past-nyc serve` as a child process on 127.0.0.1 and a free port, so
/// a test can `kill -9` it and start it again on the same data directory.
public final class ServerProcess {
    public let process: Process
    public let port: Int

    /// Built by `swift build` / `swift test` (IntegrationTests depends on the executable).
    static let executable = PackageRoot.path + "/.build/debug/past-nyc"

    public enum StartError: Error, CustomStringConvertible {
        case missingExecutable(String)
        case exitedBeforeListening(output: String)

        public var description: String {
            switch self {
            case .missingExecutable(let path): "no executable at \(path): build the package first"
            case .exitedBeforeListening(let output): "the server exited before listening:\n\(output)"
            }
        }
    }

    /// Starts the server and returns once it logs its port (the catalog import of a
    /// first start happens before that).
    public init(dataDirectory: String) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            throw StartError.missingExecutable(Self.executable)
        }
        let root = PackageRoot.path
        process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = [
            "serve", "--host", "127.0.0.1", "--port", "0", "--data-dir", dataDirectory,
            "--source-dir", root + "/Data", "--openapi", root + "/openapi.yaml", "--password-cost", "test",
            "--log-level", "notice",
        ]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()

        // Drain stderr for the child's whole life (a full pipe would block its
        // logging), and hand over the first `port=` seen, or nil at end of file.
        let found = DispatchSemaphore(value: 0)
        let state = Mutex<(port: Int?, output: String, reported: Bool)>((nil, "", false))
        let reader = errors.fileHandleForReading
        Thread.detachNewThread {
            while true {
                let data = reader.availableData
                let text = String(decoding: data, as: UTF8.self)
                let report = state.withLock { state -> Bool in
                    state.output += text
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
        guard let port else { throw StartError.exitedBeforeListening(output: output) }
        self.port = port
    }

    /// SIGKILL: no shutdown code runs, as in a crash or power cut of the process.
    public func kill9() {
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// SIGTERM, then waits for the exit; returns the exit status.
    @discardableResult
    public func stop() -> Int32 {
        if process.isRunning {
            process.terminate()
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit {
        stop()
    }
}
