/// A response value returned by handlers. The server adds `Date`, `Server`,
/// `Content-Length`, `Connection`, `X-Request-ID`, CORS and `Vary`, applies gzip,
/// answers `If-None-Match` with 304 when `etag` is set, `Range` when `acceptsRanges`
/// is, and drops the body for HEAD. The body is `body`, or `streamedBody` when set.
public struct HTTPResponse: Sendable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// A strong entity tag, quoted (`"…"`), for cacheable GET responses.
    public var etag: String?
    /// The body gzipped, for a handler that keeps it made: called instead of compressing
    /// `body` when the response is sent gzipped, and must return a gzip member of exactly
    /// `body`, as `Gzip.compress(body)` makes one (nil: compress as usual).
    public var gzippedBody: (@Sendable () -> [UInt8]?)?
    /// Whether a `200` to GET or HEAD serves single byte ranges of `body` (RFC 9110 §14,
    /// `RangeSelection`): `Accept-Ranges: bytes`, `206` with `Content-Range` over the
    /// identity body (never gzipped), `416`, and `If-Range` compared with `etag`. Off by
    /// default, so a route opts in; `Range` is evaluated after `If-None-Match`.
    public var acceptsRanges = false
    /// The fair-use rule this answer refuses the request by (`HTTPError.refusal`): the
    /// connection that writes it records it in the server's `Refusals`.
    public var refusal: RefusalRule?
    /// A body sent from files as the client takes it, never read into memory
    /// (`StreamedBody`, `sendfile(2)`); when set, `body` is not sent and nothing is gzipped.
    public var streamedBody: (any StreamedBody)?

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], etag: String? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.etag = etag
    }

    public static let jsonContentType = "application/json; charset=utf-8"
    public static let problemContentType = "application/problem+json"

    /// A JSON response from already-encoded UTF-8 bytes.
    public static func json(_ body: [UInt8], status: HTTPStatus = .ok, etag: String? = nil) -> HTTPResponse {
        HTTPResponse(status: status, headers: jsonHeaders, body: body, etag: etag)
    }

    /// Made once: every JSON response shares the one field array, copied only if a handler adds to it.
    private static let jsonHeaders = HTTPHeaders([("Content-Type", jsonContentType)])

    /// A response with no body, such as 204.
    public static func empty(_ status: HTTPStatus) -> HTTPResponse {
        HTTPResponse(status: status)
    }
}
