/// A request line and header section that passed every check of `RequestHeadParser`.
struct RequestHead: Sendable {
    var method: HTTPMethod
    var target: String
    var path: String
    var query: QueryString
    var version: HTTPVersion
    var headers: HTTPHeaders
    var framing: BodyFraming
    /// Whether the connection may stay open after the response (RFC 9112 §9.3).
    var keepAlive: Bool
    /// `Expect: 100-continue` was sent (RFC 9110 §10.1.1).
    var expectsContinue: Bool
}

/// How the request's body is delimited (RFC 9112 §6.3).
enum BodyFraming: Sendable, Equatable {
    case none
    case contentLength(Int)
    case chunked
}
