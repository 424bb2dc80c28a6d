/// Size limits the parser enforces while bytes arrive, so an oversized request is
/// refused before it is buffered whole.
struct ParseLimits: Sendable {
    /// Request line plus header section, in bytes → 431.
    var maxHeadBytes: Int
    /// Request-target, in bytes → 414.
    var maxURIBytes: Int
    /// Body, in bytes (declared by `Content-Length`, or decoded from chunks) → 413.
    var maxBodyBytes: Int

    /// The server's defaults, which `HTTPServerConfiguration` holds.
    static let `default` = HTTPServerConfiguration().parseLimits
}
