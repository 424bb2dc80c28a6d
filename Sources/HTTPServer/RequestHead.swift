/// A request line and header section that passed every check of `RequestHeadParser`.
///
/// A class, immutable, so that one instance is shared by the request a handler reads,
/// the exchange the connection answers and the access log: passing it on costs one
/// reference count, where a struct of strings and headers cost one per field, copy
/// after copy, on every request.
final class RequestHead: Sendable {
    let method: HTTPMethod
    /// The request-target exactly as sent (origin-form: path and query).
    let target: String
    /// The percent-decoded path, without the query.
    let path: String
    let query: QueryString
    let version: HTTPVersion
    let headers: HTTPHeaders
    let framing: BodyFraming
    /// Whether the connection may stay open after the response (RFC 9112 §9.3).
    let keepAlive: Bool
    /// `Expect: 100-continue` was sent (RFC 9110 §10.1.1).
    let expectsContinue: Bool

    init(
        method: HTTPMethod, target: String, path: String, query: QueryString, version: HTTPVersion,
        headers: HTTPHeaders, framing: BodyFraming = .none, keepAlive: Bool = true, expectsContinue: Bool = false
    ) {
        self.method = method
        self.target = target
        self.path = path
        self.query = query
        self.version = version
        self.headers = headers
        self.framing = framing
        self.keepAlive = keepAlive
        self.expectsContinue = expectsContinue
    }
}

/// How the request's body is delimited (RFC 9112 §6.3).
enum BodyFraming: Sendable, Equatable {
    case none
    case contentLength(Int)
    case chunked
}
