/// An error that knows its HTTP answer: handlers throw it, and the server renders
/// it in one place as RFC 9457 problem details (`application/problem+json`).
public struct HTTPError: Error, Sendable, CustomStringConvertible {
    public var status: HTTPStatus
    /// A short, fixed summary of the problem type (RFC 9457 §3.1.4).
    public var title: String
    /// What went wrong with this request, for a human.
    public var detail: String
    /// A URI naming the problem type; "about:blank" when the status says it all.
    public var type: String
    /// Extra headers, such as `Allow`, `Retry-After` or `WWW-Authenticate`.
    public var headers: HTTPHeaders
    /// The fair-use rule this error refuses a request by, for a refusal decided where no
    /// `Refusals` is at hand (the head parser, the body reader): its response carries the
    /// rule, and the connection records it when it writes the answer.
    public var refusal: RefusalRule?

    public init(
        _ status: HTTPStatus, title: String? = nil, detail: String, type: String = "about:blank",
        headers: HTTPHeaders = HTTPHeaders(), refusal: RefusalRule? = nil
    ) {
        self.status = status
        self.title = title ?? status.reasonPhrase
        self.detail = detail
        self.type = type
        self.headers = headers
        self.refusal = refusal
    }

    public var description: String { "\(status.code) \(title): \(detail)" }
}
