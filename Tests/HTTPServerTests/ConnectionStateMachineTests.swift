import Testing

@testable import HTTPServer

/// The state machine's answers to the events only a socket produces (a write that
/// blocks, a handler that takes its time, shutdown), with times given by the test.
@Suite struct ConnectionStateMachineTests {
    static let second: UInt64 = 1_000_000_000
    static let settings = ConnectionSettings(
        configuration: HTTPServerConfiguration(), router: TestServer.router(signals: TestServer.Signals()))

    static func machine() -> ConnectionStateMachine {
        var counter = 0
        return ConnectionStateMachine(settings: settings, peerAddress: "192.0.2.1", acceptedAt: 0) {
            counter += 1
            return "id-\(counter)"
        }
    }

    static func receive(_ text: String, into machine: inout ConnectionStateMachine, at now: UInt64) -> ConnectionAction {
        Array(text.utf8).withUnsafeBytes { machine.received($0, now: now) }
    }

    /// Receives a GET /hello and hands back the handler's answer: the machine then waits for the write.
    static func respond(_ machine: inout ConnectionStateMachine, at now: UInt64, close: Bool = false) {
        let header = close ? "Connection: close\r\n" : ""
        guard case .handle(let request, _) = receive("GET /hello HTTP/1.1\r\nHost: t\r\n\(header)\r\n", into: &machine, at: now) else {
            Issue.record("the request was not handed to its handler")
            return
        }
        #expect(request.path == "/hello")
        #expect(request.remoteAddress == "192.0.2.1")
        guard case .respond(_, let context, let log) = machine.handlerFinished(.empty(.noContent), now: now) else {
            Issue.record("no response to write")
            return
        }
        #expect(context.closing == close)
        #expect(log.requestID == "id-1")
    }

    /// Idle (what the server closes first to make room) only between requests: not before
    /// the first, not while one is read, answered or written, not after a closing response.
    /// Its deadline is the idle timeout after the last response, so the earliest is the
    /// longest idle.
    @Test func idleOnlyBetweenRequests() {
        var machine = Self.machine()
        #expect(!machine.isIdle)
        guard case .handle = Self.receive("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n", into: &machine, at: Self.second) else {
            Issue.record("the request was not handed to its handler")
            return
        }
        #expect(!machine.isIdle)
        _ = machine.handlerFinished(.empty(.noContent), now: 2 * Self.second)
        #expect(!machine.isIdle)
        _ = machine.writeFinished(written: 100, now: 3 * Self.second)
        #expect(machine.isIdle)
        #expect(machine.deadline == 2 * Self.second + Self.settings.idleTimeout)
        _ = Self.receive("GET /hel", into: &machine, at: 4 * Self.second)
        #expect(!machine.isIdle)
        _ = Self.receive("lo HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", into: &machine, at: 5 * Self.second)
        _ = machine.handlerFinished(.empty(.noContent), now: 5 * Self.second)
        guard case .linger = machine.writeFinished(written: 100, now: 5 * Self.second) else {
            Issue.record("a closing response did not linger")
            return
        }
        #expect(!machine.isIdle)
    }

    @Test func aStalledWriteClosesOneSendTimeoutAfterItsLastProgress() {
        var machine = Self.machine()
        Self.respond(&machine, at: Self.second)
        guard case .awaitWritable = machine.writeBlocked(written: 0, now: 2 * Self.second) else {
            Issue.record("a blocked write does not wait for writability")
            return
        }
        #expect(machine.deadlineKind == .write)
        #expect(machine.deadline == 32 * Self.second)
        // Progress pushes the deadline back (enough of it for the minimum rate); a wake-up
        // without progress does not.
        _ = machine.writeBlocked(written: 1_000_000, now: 20 * Self.second)
        _ = machine.writeBlocked(written: 0, now: 25 * Self.second)
        guard case .none = machine.tick(now: 50 * Self.second - 1) else {
            Issue.record("closed before the write deadline")
            return
        }
        guard case .close = machine.tick(now: 50 * Self.second) else {
            Issue.record("a stalled write was not closed")
            return
        }
        #expect(machine.isClosed)
    }

    @Test func aFinishedWriteGoesBackToTheIdleTimeout() {
        var machine = Self.machine()
        Self.respond(&machine, at: 0)
        _ = machine.writeBlocked(written: 100, now: 5 * Self.second)
        guard case .awaitReadable = machine.writeFinished(written: 100, now: 6 * Self.second) else {
            Issue.record("does not read the next request")
            return
        }
        #expect(machine.deadlineKind == .idle)
        #expect(machine.deadline == 36 * Self.second)
    }

    @Test func noDeadlineRunsWhileAHandlerWorks() {
        var machine = Self.machine()
        guard case .handle = Self.receive("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n", into: &machine, at: 0) else {
            Issue.record("the request was not handed to its handler")
            return
        }
        guard case .none = machine.tick(now: 3600 * Self.second) else {
            Issue.record("a deadline fired while the handler ran")
            return
        }
        guard case .respond = machine.handlerFinished(.empty(.noContent), now: 3600 * Self.second) else {
            Issue.record("the late answer was not written")
            return
        }
    }

    @Test func aClosingResponseLingersOnceWritten() {
        var machine = Self.machine()
        Self.respond(&machine, at: 0, close: true)
        guard case .linger = machine.writeFinished(written: 0, now: 2 * Self.second) else {
            Issue.record("no lingering close")
            return
        }
        #expect(machine.deadlineKind == .linger)
        #expect(machine.deadline == 3 * Self.second)
    }

    @Test func shutdownClosesAnIdleConnectionAndLetsABusyOneFinish() {
        var idle = Self.machine()
        guard case .close = idle.shutdownRequested() else {
            Issue.record("an idle connection stayed open")
            return
        }
        var busy = Self.machine()
        guard case .handle = Self.receive("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n", into: &busy, at: 0) else {
            Issue.record("the request was not handed to its handler")
            return
        }
        guard case .none = busy.shutdownRequested() else {
            Issue.record("a busy connection was cut off")
            return
        }
        guard case .respond(_, let context, _) = busy.handlerFinished(.empty(.noContent), now: 0) else {
            Issue.record("the answer was not written")
            return
        }
        #expect(context.closing)
    }
}
