import Basics
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

    @Test func manyRequestsNeverComputeMoreAnswersAtOnceThanThreads() throws {
        let pool = try ComputePool(threadCount: 2)
        let running = Mutex((now: 0, most: 0))
        let answers = Mutex<[Int: String]>([:])
        // A thread each, as connections are: all of them wait for their answers at once.
        let requests = try (0..<12).map { request in
            try NativeThread.spawn(name: "request-\(request)") {
                let response = Self.answer(on: pool) {
                    running.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                    // Long enough for the other requests to pile up behind the two threads.
                    usleep(5_000)
                    running.withLock { $0.now -= 1 }
                    return HTTPResponse(body: Array("\(request * request)".utf8))
                }
                answers.withLock { $0[request] = String(decoding: response.body, as: UTF8.self) }
            }
        }
        for request in requests { request.join() }
        #expect(running.withLock { $0.most } == 2)
        #expect(answers.withLock { $0 } == Dictionary(uniqueKeysWithValues: (0..<12).map { ($0, "\($0 * $0)") }))
    }

    @Test func anAnswersErrorIsItsProblem() throws {
        let pool = try ComputePool(threadCount: 1)
        let refused = Self.answer(on: pool) { throw HTTPError(.badRequest, detail: "no tour from here") }
        #expect(refused.status == .badRequest)
        #expect(String(decoding: refused.body, as: UTF8.self).contains("no tour from here"))
        #expect(Self.answer(on: pool) { HTTPResponse(body: Array("7".utf8)) }.body == Array("7".utf8))
    }
}
