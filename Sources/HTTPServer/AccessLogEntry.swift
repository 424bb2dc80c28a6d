/// What the access log and the request metrics say of one answered request, beside the
/// status and size the encoder decides.
struct AccessLogEntry {
    var method: HTTPMethod
    var path: String
    /// What the request metrics count it under.
    var route: RouteLabel
    var requestID: String
    /// Monotonic nanoseconds when the request's head was parsed.
    var startedAt: UInt64
    /// The client address (`HTTPRequest.remoteAddress`), or the peer's when no request was read.
    var remote: String
}
