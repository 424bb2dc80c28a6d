import Dispatch
import Logging
import Synchronization

/// Answers one request of a `RouteHandler.deferred` handler, from any thread, once:
/// the handler may hand it to whatever finishes the work later (a group commit, a
/// change that a held request waits for) and return at once, so no thread waits with
/// the request. The connection waits for the answer without a thread of its own.
///
/// A responder dropped without an answer sends a 500 (and logs it), so a handler that
/// loses track of its request cannot leave the connection waiting forever.
public final class HTTPResponder: Sendable {
    private let request: HTTPRequest
    private let logger: Logger
    private let deliver: @Sendable (HTTPResponse) -> Void
    private let answered = Atomic<Bool>(false)

    init(request: HTTPRequest, logger: Logger, deliver: @escaping @Sendable (HTTPResponse) -> Void) {
        self.request = request
        self.logger = logger
        self.deliver = deliver
    }

    deinit {
        guard !answered.load(ordering: .acquiring) else { return }
        logger.error("handler dropped its request", metadata: ["path": .string(request.path), "request_id": .string(request.requestID)])
        deliver(HTTPError(.internalServerError, detail: "the server could not complete the request").problemResponse)
    }

    /// Runs a `deferred` handler on the calling thread and waits for its answer: for
    /// callers that wait anyway (`InMemoryConnection`, tests). `Connection` never waits.
    public static func awaitingAnswer(
        to request: HTTPRequest, from handler: @Sendable (HTTPRequest, HTTPResponder) throws -> Void,
        logger: Logger = Logger(label: "responder", factory: { _ in SwiftLogNoOpLogHandler() })
    ) -> HTTPResponse {
        let answer = Mutex<HTTPResponse?>(nil)
        let answered = DispatchSemaphore(value: 0)
        HTTPResponder(request: request, logger: logger) { response in
            answer.withLock { $0 = response }
            answered.signal()
        }.run(handler)
        answered.wait()
        return answer.withLock { $0.take()! }
    }

    /// Runs a `deferred` handler with this responder: what it throws before it answers
    /// is its answer, rendered as every handler's error is.
    func run(_ handler: (HTTPRequest, HTTPResponder) throws -> Void) {
        do {
            try handler(request, self)
        } catch {
            respond { throw error }
        }
    }

    /// Answers with what `makeResponse` returns or throws (rendered as every handler's
    /// error is, by `RequestPipeline.run`: an `HTTPResponseError` as its problem, anything
    /// else as a logged 500). Only the
    /// first call answers; later ones are ignored.
    public func respond(_ makeResponse: () throws -> HTTPResponse) {
        guard !answered.exchange(true, ordering: .acquiringAndReleasing) else { return }
        deliver(RequestPipeline.run({ _ in try makeResponse() }, request, logger: { logger }))
    }
}
