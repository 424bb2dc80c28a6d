import Logging

/// What happens to a complete request, with or without a socket: routed, run by its
/// handler, errors rendered as problems, then encoded. `Connection` uses it for every
/// request, and `InMemoryConnection` (tests) through the same state machine, so both
/// produce the same bytes.
enum RequestPipeline {
    /// The response to `request` for its route `match`: the handler's, a thrown
    /// `HTTPResponseError`'s problem, a 500 for anything else, or the router's 404, 405 and `OPTIONS`.
    ///
    /// - Parameter logger: read only when a handler fails with an unexpected error.
    static func response(to request: HTTPRequest, match: Router.Match, logger: @autoclosure () -> Logger) -> HTTPResponse {
        switch match {
        case .found(let handler, _, _, _):
            switch handler.placement(for: request) {
            case .immediate(let run), .blocking(let run):
                return Self.run(run, request, logger: logger)
            case .deferred(let run):
                return HTTPResponder.awaitingAnswer(to: request, from: run, logger: logger())
            case .handOff(let run):
                return HTTPResponder.awaitingAnswer(to: request, from: run, logger: logger())
            }
        case .methodNotAllowed(let allowed, _, _):
            let allow = allowed.map(\.rawValue).joined(separator: ", ")
            if request.method == .options {
                return options(allow: allow, headers: request.headers)
            }
            let error = HTTPError(
                .methodNotAllowed, detail: "\(request.method.rawValue) is not allowed on this path; use \(allow).",
                headers: HTTPHeaders([("Allow", allow)]))
            return error.problemResponse
        case .notFound:
            return HTTPError(.notFound, detail: "no resource at this path").problemResponse
        }
    }

    /// `match` with its handler placed for `request` (see `RouteHandler.placement(for:)`):
    /// an `immediateUnlessBlocking` or `immediateUnlessHandOff` one has already run its in-memory half, so the
    /// caller on the event loop only has to tell where each of the others runs.
    static func placing(_ match: Router.Match, for request: HTTPRequest) -> Router.Match {
        guard case .found(let handler, let pathParameters, let caching, let pattern) = match else { return match }
        switch handler.placement(for: request) {
        case .immediate(let run): return .found(.immediate(run), pathParameters: pathParameters, caching: caching, pattern: pattern)
        case .blocking(let run): return .found(.blocking(run), pathParameters: pathParameters, caching: caching, pattern: pattern)
        case .deferred(let run): return .found(.deferred(run), pathParameters: pathParameters, caching: caching, pattern: pattern)
        case .handOff(let run): return .found(.handOff(run), pathParameters: pathParameters, caching: caching, pattern: pattern)
        }
    }

    /// `OPTIONS` on a known path: 204 with `Allow`; a CORS preflight also gets the
    /// `Access-Control-Allow-*` answers (Fetch standard, CORS protocol).
    private static func options(allow: String, headers: HTTPHeaders) -> HTTPResponse {
        var response = HTTPResponse.empty(.noContent)
        response.headers.add("Allow", allow)
        if headers.contains("Origin"), headers.contains("Access-Control-Request-Method") {
            response.headers.add("Access-Control-Allow-Methods", allow)
            response.headers.add("Access-Control-Allow-Headers", "Authorization, Content-Type, If-None-Match, If-Range, Range, X-Request-ID")
            response.headers.add("Access-Control-Max-Age", "86400")
        }
        return response
    }

    /// Runs a handler: the one place a thrown error becomes an answer. An
    /// `HTTPResponseError` with a problem is rendered as that problem; anything else is a
    /// generic 500 whose details go to the log only.
    static func run(
        _ handler: (HTTPRequest) throws -> HTTPResponse, _ request: HTTPRequest, logger: () -> Logger
    ) -> HTTPResponse {
        do {
            return try handler(request)
        } catch {
            if let problem = (error as? any HTTPResponseError)?.problem { return problem.problemResponse }
            logger().error(
                "handler failed",
                metadata: ["error": "\(error)", "path": .string(request.path), "request_id": .string(request.requestID)])
            return HTTPError(.internalServerError, detail: "the server could not complete the request").problemResponse
        }
    }
}
