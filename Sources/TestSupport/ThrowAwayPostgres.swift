import Foundation

/// A PostgreSQL server of one test's own, started with `scripts/postgres.sh`, for
/// tests that stop and start it (an outage). Stopped and deleted on release.
public final class ThrowAwayPostgres: Sendable {
    public let url: String
    public let directory: String

    public enum ScriptError: Error, CustomStringConvertible {
        case failed(command: String, output: String)

        public var description: String {
            switch self {
            case .failed(let command, let output): "scripts/postgres.sh \(command) failed: \(output)"
            }
        }
    }

    public init() throws {
        let lines = try Self.run(["start", "--minutes", "10"]).split(separator: "\n").map(String.init)
        guard lines.count >= 2 else { throw ScriptError.failed(command: "start", output: lines.joined()) }
        url = lines[0]
        directory = lines[1]
    }

    deinit {
        _ = try? Self.run(["stop", directory])  // Best effort: the server stops itself after its time limit anyway.
    }

    /// Stops the server, keeping its data: connections break, new ones are refused.
    public func down() throws {
        _ = try Self.run(["down", directory])
    }

    /// Starts the server again on the same port and data.
    public func up() throws {
        _ = try Self.run(["up", directory])
    }

    private static func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: PackageRoot.path + "/scripts/postgres.sh")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw ScriptError.failed(command: arguments.joined(separator: " "), output: text)
        }
        return text
    }
}
