import Foundation
import Testing

/// A suite trait: one server for the whole suite (started before its first test,
/// stopped after its last), whose URL the tests read from `RunningServer.url`.
struct RunningServer: SuiteTrait, TestScoping {
    @TaskLocal static var url: URL?
    /// Where the server's mail arrives.
    @TaskLocal static var mailbox: Mailbox?

    func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        try await Self.$mailbox.withValue(server.mailbox) {
            try await Self.$url.withValue(server.baseURL, operation: function)
        }
    }
}

extension Trait where Self == RunningServer {
    /// Runs the suite against one real server.
    static var runningServer: Self { RunningServer() }
}
