/// A parsed request as handlers see it: no socket, the whole body already read.
public struct HTTPRequest: Sendable {
    /// The request line and headers, shared with the connection that answers the request.
    let head: RequestHead
    public var method: HTTPMethod { head.method }
    /// The request-target exactly as sent (origin-form: path and query).
    public var target: String { head.target }
    /// The percent-decoded path, without the query.
    public var path: String { head.path }
    /// The query, decoded on demand.
    public var queryString: QueryString { head.query }
    public var version: HTTPVersion { head.version }
    public var headers: HTTPHeaders { head.headers }
    public var body: [UInt8]
    /// Values of the route's `{name}` segments, filled in by the router.
    public var pathParameters: [String: String]
    /// The client's address, e.g. "192.0.2.1" or "2001:db8::1", in `IPAddress`'s one
    /// spelling: the TCP peer's, or, when the peer is a trusted proxy, the one its
    /// `X-Forwarded-For` names (`TrustedProxies`). What every per-client rule keys on,
    /// and the access log's `remote`.
    public var remoteAddress: String
    /// The `X-Request-ID` sent by the client, or one generated for this request.
    public var requestID: String

    /// A request made by hand (tests, tools): its query is `queryItems`, encoded.
    public init(
        method: HTTPMethod,
        target: String,
        path: String,
        queryItems: [(name: String, value: String)] = [],
        version: HTTPVersion = .http1_1,
        headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = [],
        pathParameters: [String: String] = [:],
        remoteAddress: String = "",
        requestID: String = ""
    ) {
        let head = RequestHead(
            method: method, target: target, path: path, query: QueryString(items: queryItems), version: version,
            headers: headers)
        self.init(head: head, body: body, pathParameters: pathParameters, remoteAddress: remoteAddress, requestID: requestID)
    }

    /// A request as the connection read it.
    init(head: RequestHead, body: [UInt8], pathParameters: [String: String], remoteAddress: String, requestID: String) {
        self.head = head
        self.body = body
        self.pathParameters = pathParameters
        self.remoteAddress = remoteAddress
        self.requestID = requestID
    }

    /// The query's name/value pairs, percent-decoded (`+` as space), in order.
    public var queryItems: [(name: String, value: String)] {
        queryString.items
    }
}
