import Foundation
import Testing
import TestSupport

/// A suite trait: one real `past-nyc serve` for the whole suite (started before its first
/// test, stopped after its last), whose URL the tests read from `RunningServer.url` and
/// whose data directory (where the operator's commands act) from `RunningServer.dataDirectory`.
struct RunningServer: SuiteTrait, TestScoping {
    @TaskLocal static var url: URL?
    @TaskLocal static var dataDirectory: String?

    func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        let dataDirectory = try TemporaryDirectory(prefix: "past-nyc-client")
        // The photographs come from a local origin: a test never reaches the internet.
        let origin = try TestImageOrigin()
        defer { origin.shutdown() }
        let root = PackageRoot.path
        let server = try ServerProcess(arguments: [
            "--data-dir", dataDirectory.path, "--source-dir", root + "/Data", "--openapi", root + "/openapi.yaml",
            "--web-dir", root + "/Web",
            // Every suite runs at once against this one server, all from 127.0.0.1: their
            // registrations hash side by side (more than one address's 2 at once), there are
            // more than one address's 20 an hour, and one test fills a walk's 5,000 points
            // faster than a user's write rate. Those limits alone are lifted; the rest stay
            // as served (the login throttle's test meets its 429).
            "--hashes-per-client", "0", "--registrations-per-hour", "0", "--user-write-rate", "0",
            "--image-origin", origin.url,
        ])
        defer {
            server.stop()
            withExtendedLifetime(dataDirectory) {}
        }
        let url = try #require(URL(string: "http://127.0.0.1:\(server.port)"))
        try await Self.$url.withValue(url) {
            try await Self.$dataDirectory.withValue(dataDirectory.path, operation: function)
        }
    }
}

extension RunningServer {
    /// Runs `past-nyc moderators add username` on the suite's data directory, as the
    /// operator names a moderator.
    static func makeModerator(_ username: String) throws {
        let dataDirectory = try #require(Self.dataDirectory)
        let (status, output) = try ServerProcess.runToExit(["moderators", "add", username, "--data-dir", dataDirectory])
        try #require(status == 0, "past-nyc moderators add: \(output)")
    }
}

extension Trait where Self == RunningServer {
    /// Runs the suite against one real server.
    static var runningServer: Self { RunningServer() }
}
