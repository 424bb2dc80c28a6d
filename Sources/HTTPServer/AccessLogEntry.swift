/// What the access log says of one answered request, beside the status and size the
/// encoder decides.
struct AccessLogEntry {
    var method: HTTPMethod
    var path: String
    var requestID: String
    /// Monotonic nanoseconds when the request's head was parsed.
    var startedAt: UInt64
    /// The client address (`HTTPRequest.remoteAddress`), or the peer's when no request was read.
    var remote: String
}
