import Basics
import HTTPServer

/// Where handlers run long pure computation (a tour's plan): one thread per CPU the
/// process may run on, the jobs first come, first served. A `.handOff` or `.deferred`
/// handler hands its answer's computation over with `answer` and returns at once.
///
/// The HTTP worker pool has more threads than cores, for the handlers that mostly wait
/// (on SQLite, on PostgreSQL). Computation there is interleaved by the scheduler, so
/// with sixteen plans at once on one core each one takes sixteen times as long, and the
/// slowest plans' answers wait longest: `/tours` at 16 connections had a p99 of 50–70 ms
/// that way, against 10 ms with its plans queued one per core (`scripts/bench.sh tours`,
/// the server on one core). Here each plan runs alone on its core, and an answer takes
/// its wait in the queue plus its own CPU time.
final class ComputePool: Sendable {
    private let pool: WorkerPool

    /// Throws when the system refuses the threads.
    init(threadCount: Int = HTTPServer.usableCPUCount()) throws {
        pool = try WorkerPool(threadCount: threadCount, name: "compute")
    }

    deinit {
        pool.stop()
    }

    /// The most jobs that run at once.
    var threadCount: Int { pool.threadCount }

    /// Answers `responder`, once the jobs queued before this one have started, with what
    /// `makeResponse` returns or throws (`HTTPResponder.respond`); with a 503 when the
    /// pool has stopped (the server is shutting down).
    func answer(_ responder: HTTPResponder, with makeResponse: @escaping @Sendable () throws -> HTTPResponse) {
        guard !pool.submit({ responder.respond(makeResponse) }) else { return }
        responder.respond { throw HTTPError(.serviceUnavailable, detail: "the server is shutting down") }
    }
}
