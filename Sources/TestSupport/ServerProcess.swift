import Dispatch
import Foundation
import Glibc
import Synchronization

/// The real `past-nyc serve` as a child process on 127.0.0.1 and a free port, so
/// a test can `kill -9` it and start it again on the same data directory.
public final class ServerProcess {
    public let process: Process
    public let port: Int
    /// The port of the `--metrics-listen` listener, when given one.
    public let metricsPort: Int?

    /// The `past-nyc` built beside the running test bundle: `swift test` puts both in
    /// one build folder, whichever `--scratch-path` or `--sanitize` it was given, so a
    /// sanitizer run starts the server built with the same sanitizer (IntegrationTests
    /// depends on the executable).
    public static let executable: String = {
        let testBundle = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        return URL(fileURLWithPath: testBundle).deletingLastPathComponent().appendingPathComponent("past-nyc").path
    }()

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
    /// - Parameters:
    ///   - descriptorLimit: when set, the soft and hard `RLIMIT_NOFILE` of the
    ///   server (set by `sh`'s `ulimit -n` before it execs the server).
    ///   - databaseURL: the PostgreSQL database of the user data; nil keeps it in SQLite.
    public convenience init(dataDirectory: String, descriptorLimit: Int? = nil, databaseURL: String? = nil) throws {
        let root = PackageRoot.path
        try self.init(
            arguments: [
                "--data-dir", dataDirectory, "--source-dir", root + "/Data", "--openapi", root + "/openapi.yaml",
                "--web-dir", root + "/Web",
            ]
                + (databaseURL.map { ["--database-url", $0] } ?? []),
            descriptorLimit: descriptorLimit)
    }

    /// Starts `past-nyc serve` on 127.0.0.1, a free port and the cheap password cost, with
    /// `arguments` added (the folders), in `workingDirectory`, with `environment` added to
    /// this process's, and returns once it logs its port.
    public init(
        arguments extraArguments: [String], descriptorLimit: Int? = nil, workingDirectory: String? = nil,
        environment: [String: String] = [:]
    ) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            throw StartError.missingExecutable(Self.executable)
        }
        let arguments =
            ["serve", "--host", "127.0.0.1", "--port", "0", "--password-cost", "test", "--log-level", "notice"]
            + extraArguments
        process = Process()
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let workingDirectory { process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory) }
        if let descriptorLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n \(descriptorLimit) && exec \"$0\" \"$@\"", Self.executable] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: Self.executable)
            process.arguments = arguments
        }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()

        // Drain stderr for the child's whole life (a full pipe would block its
        // logging), and hand over the first `port=` seen (and that of the metrics
        // listener, logged after it, when there is one), or nil at end of file.
        let wantsMetrics = extraArguments.contains("--metrics-listen")
        let found = DispatchSemaphore(value: 0)
        let state = Mutex<(port: Int?, metricsPort: Int?, output: String, reported: Bool)>((nil, nil, "", false))
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
                    let metricsLine = #"listener=metrics port=\d+"#
                    if state.metricsPort == nil, let range = state.output.range(of: metricsLine, options: .regularExpression) {
                        state.metricsPort = Int(state.output[range].dropFirst("listener=metrics port=".count))
                    }
                    let listening = state.port != nil && (!wantsMetrics || state.metricsPort != nil)
                    guard !state.reported, listening || data.isEmpty else { return false }
                    state.reported = true
                    return true
                }
                if report { found.signal() }
                if data.isEmpty { return }
            }
        }
        found.wait()
        let (port, metricsPort, output) = state.withLock { ($0.port, $0.metricsPort, $0.output) }
        guard let port, metricsPort != nil || !wantsMetrics else { throw StartError.exitedBeforeListening(output: output) }
        self.port = port
        self.metricsPort = metricsPort
    }

    /// Runs `past-nyc` with `arguments` (in `workingDirectory`, `environment` added) for
    /// the runs that must stop at once: its exit status and everything it wrote to stderr.
    /// One still running after `timeout` is killed and reported as status -1, so a test
    /// of a refusal fails, not hangs, when the server starts instead.
    public static func runToExit(
        _ arguments: [String], workingDirectory: String? = nil, environment: [String: String] = [:],
        timeout: Duration = .seconds(60)
    ) throws -> (status: Int32, errorOutput: String) {
        let run = try runCapturingOutput(
            arguments, workingDirectory: workingDirectory, environment: environment, timeout: timeout)
        return (run.status, run.errorOutput)
    }

    /// `runToExit`, keeping what the command printed on stdout too.
    public static func runCapturingOutput(
        _ arguments: [String], workingDirectory: String? = nil, environment: [String: String] = [:],
        timeout: Duration = .seconds(60)
    ) throws -> (status: Int32, output: String, errorOutput: String) {
        guard FileManager.default.isExecutableFile(atPath: executable) else { throw StartError.missingExecutable(executable) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let workingDirectory { process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory) }
        let errors = Pipe()
        let output = Pipe()
        process.standardError = errors
        process.standardOutput = output
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        // Both pipes drained meanwhile: a child blocked on a full one would never exit.
        let texts = Mutex(["", ""])
        let drained = DispatchSemaphore(value: 0)
        for (index, pipe) in [output, errors].enumerated() {
            Thread.detachNewThread {
                let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                texts.withLock { $0[index] = text }
                drained.signal()
            }
        }
        let deadline = DispatchTime.now() + .nanoseconds(Int(timeout.components.seconds) * 1_000_000_000)
        let timedOut = exited.wait(timeout: deadline) == .timedOut
        if timedOut {
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        drained.wait()
        drained.wait()
        let (printed, errorOutput) = texts.withLock { ($0[0], $0[1]) }
        return (timedOut ? -1 : process.terminationStatus, printed, errorOutput)
    }

    /// User plus system CPU time the server has used so far.
    public func cpuTime() throws -> Duration {
        let stat = try String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)
        // Fields 14 and 15 (utime, stime), counted after the parenthesised command name.
        guard let commandEnd = stat.lastIndex(of: ")") else { throw CocoaError(.fileReadCorruptFile) }
        let fields = stat[stat.index(after: commandEnd)...].split(separator: " ")
        let ticks = (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
        return .milliseconds(ticks * 1000 / sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The server's open file descriptors, by number, with what each refers to.
    public func openDescriptors() throws -> [(number: Int, target: String)] {
        let directory = "/proc/\(process.processIdentifier)/fd"
        return try FileManager.default.contentsOfDirectory(atPath: directory).compactMap { name in
            Int(name).map { ($0, (try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + name)) ?? "?") }
        }.sorted { $0.number < $1.number }
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
