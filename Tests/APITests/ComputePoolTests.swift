import Basics
import Dispatch
import Glibc
import Synchronization
import Testing

@testable import API
@testable import HTTPServer

/// `ComputePool` computes at most one answer per thread at once, whatever the number of
/// requests waiting, and each request gets its own answer, or its own error's problem.
@Suite struct ComputePoolTests {
    /// `answer` on `pool` for one request, waited for as a connection would.
    private static func answer(
        on pool: ComputePool, _ makeResponse: @escaping @Sendable () throws -> HTTPResponse
    ) -> HTTPResponse {
        HTTPResponder.awaitingAnswer(to: HTTPRequest(method: .get, target: "/tours", path: "/tours")) { _, responder in
            pool.answer(responder, with: makeResponse)
        }
    }

    @Test func byDefaultOneThreadPerUsableCPU() throws {
        #expect(try ComputePool().threadCount == HTTPServer.usableCPUCount())
    }

    /// Each computation waits at a gate the test opens one at a time, so every request
    /// is waiting while two are computing: a pool that started more than two at once
    /// would show more running before the gate lets any finish.
    @Test func manyRequestsNeverComputeMoreAnswersAtOnceThanThreads() throws {
        let pool = try ComputePool(threadCount: 2)
        let running = Mutex((now: 0, most: 0, finished: 0))
        let answers = Mutex<[Int: String]>([:])
        let gate = DispatchSemaphore(value: 0)
        let requestCount = 12
        // A thread each, as connections are: all of them wait for their answers at once.
        let requests = try (0..<requestCount).map { request in
            try NativeThread.spawn(name: "request-\(request)") {
                let response = Self.answer(on: pool) {
                    running.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                    gate.wait()
                    running.withLock { $0.now -= 1; $0.finished += 1 }
                    return HTTPResponse(body: Array("\(request * request)".utf8))
                }
                answers.withLock { $0[request] = String(decoding: response.body, as: UTF8.self) }
            }
        }
        for opened in 0..<requestCount {
            // Both threads busy (or, at the end, every request left running) before each opening.
            let expected = min(2, requestCount - opened)
            try Self.waitUntil { running.withLock { $0.now == expected && $0.finished == opened } }
            #expect(running.withLock { $0.most } == 2)
            gate.signal()
        }
        for request in requests { request.join() }
        #expect(running.withLock { $0.most } == 2)
        #expect(answers.withLock { $0 } == Dictionary(uniqueKeysWithValues: (0..<requestCount).map { ($0, "\($0 * $0)") }))
    }

    /// Polls `condition` (at most 10 s) until it holds.
    private static func waitUntil(_ condition: () -> Bool) throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition(), ContinuousClock.now < deadline { usleep(1_000) }
        try #require(condition())
    }

    @Test func anAnswersErrorIsItsProblem() throws {
        let pool = try ComputePool(threadCount: 1)
        let refused = Self.answer(on: pool) { throw HTTPError(.badRequest, detail: "no tour from here") }
        #expect(refused.status == .badRequest)
        #expect(String(decoding: refused.body, as: UTF8.self).contains("no tour from here"))
        #expect(Self.answer(on: pool) { HTTPResponse(body: Array("7".utf8)) }.body == Array("7".utf8))
    }
}
