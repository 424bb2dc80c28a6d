import Dispatch
import Glibc
import Testing
import TestSupport

@testable import HTTPServer

@Suite struct ShutdownTests {
    /// Spins (yielding the CPU) until `condition` holds, for at most five seconds.
    private func waitUntil(_ condition: () -> Bool) -> Bool {
        let limit = ContinuousClock.now + .seconds(5)
        while !condition() {
            if ContinuousClock.now > limit { return false }
            sched_yield()
        }
        return true
    }

    @Test func inFlightRequestFinishesIdleClosesNewRefused() throws {
        // A grace period far beyond the waits below: shutdown returning proves it waited
        // for the request, not for the grace period to end.
        let server = try TestServer { $0.shutdownGracePeriod = .seconds(120) }
        let port = server.port
        let idle = try server.client()
        try idle.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try idle.readResponse().status == 200)

        let busy = try server.client()
        try busy.send("GET /gated HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(waitUntil { server.signals.slowStarted.withLock { $0 } == 1 })

        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            server.server.shutdown()
            done.signal()
        }
        // The idle connection closing shows the shutdown has begun; only then may the
        // in-flight request finish, however slowly this machine schedules the threads.
        #expect(try idle.waitForClose())
        server.signals.gate.signal()
        let response = try busy.readResponse()
        #expect(response.status == 200)
        #expect(response.bodyText == #"{"gated":true}"#)
        #expect(response.header("Connection") == "close")
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(throws: RawHTTPClient.ClientError.self) { try RawHTTPClient(port: port) }
        server.server.shutdown()
    }

    @Test func gracePeriodBoundsShutdown() throws {
        let server = try TestServer { $0.shutdownGracePeriod = .milliseconds(100) }
        let busy = try server.client()
        try busy.send("GET /gated HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(waitUntil { server.signals.slowStarted.withLock { $0 } == 1 })
        server.server.shutdown()
        // Shutdown returned while the handler still waits at the gate: the grace period ended it.
        #expect(server.signals.gatedFinished.withLock { $0 } == 0)
        #expect(try busy.waitForClose())
        server.signals.gate.signal()
    }

    @Test func startAfterShutdownIsRefused() throws {
        let server = try TestServer()
        server.server.shutdown()
        #expect(throws: HTTPServerError.notStartable) { try server.server.start() }
    }
}
