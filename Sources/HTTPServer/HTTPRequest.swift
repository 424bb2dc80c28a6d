/// A parsed request as handlers see it: no socket, the whole body already read.
public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    /// The request-target exactly as sent (origin-form: path and query).
    public var target: String
    /// The percent-decoded path, without the query.
    public var path: String
    /// The query, decoded on demand.
    public var queryString: QueryString
    public var version: HTTPVersion
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// Values of the route's `{name}` segments, filled in by the router.
    public var pathParameters: [String: String]
    /// The peer's address, e.g. "127.0.0.1"; used for per-client throttling.
    public var remoteAddress: String
    /// The `X-Request-ID` sent by the client, or one generated for this request.
    public var requestID: String

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
        self.method = method
        self.target = target
        self.path = path
        self.queryString = QueryString(items: queryItems)
        self.version = version
        self.headers = headers
        self.body = body
        self.pathParameters = pathParameters
        self.remoteAddress = remoteAddress
        self.requestID = requestID
    }

    /// The query's name/value pairs, percent-decoded (`+` as space), in order.
    public var queryItems: [(name: String, value: String)] {
        queryString.items
    }

    /// The first value of query parameter `name`.
    public func query(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    /// Every value of query parameter `name`, in order.
    public func queryValues(_ name: String) -> [String] {
        queryItems.filter { $0.name == name }.map(\.value)
    }
}
