import HTTPServer

extension RawHTTPClient {
    /// Sends one HTTP/1.1 request on this connection (keep-alive) and reads its response.
    public func request(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8]? = nil
    ) throws -> Response {
        try send(Self.requestBytes(method, target, headers: headers, body: body))
        return try readResponse(forHead: method == "HEAD")
    }

    /// Sends a JSON body, with a bearer token when given.
    public func requestJSON(_ method: String, _ target: String, json: String? = nil, token: String? = nil) throws -> Response {
        let (headers, body) = Self.jsonRequestParts(json: json, token: token)
        return try request(method, target, headers: headers, body: body)
    }

    /// `path` with `query` after a `?` (none when it is empty), every byte of a name or
    /// value but the unreserved ones (RFC 3986 §2.3) percent-encoded.
    public static func target(_ path: String, query: [(String, String)]) -> String {
        guard !query.isEmpty else { return path }
        return path + "?" + QueryString(items: query.map { (name: $0.0, value: $0.1) }).encoded
    }

    /// The bytes of an HTTP/1.1 request with a `Host`, the given fields and, with a body,
    /// its `Content-Length`.
    static func requestBytes(_ method: String, _ target: String, headers: [(String, String)], body: [UInt8]?) -> [UInt8] {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers {
            head += "\(name): \(value)\r\n"
        }
        if let body {
            head += "Content-Length: \(body.count)\r\n"
        }
        return Array((head + "\r\n").utf8) + (body ?? [])
    }

    /// The fields and body of a request with an optional JSON body and bearer token.
    static func jsonRequestParts(json: String?, token: String?) -> (headers: [(String, String)], body: [UInt8]?) {
        var headers: [(String, String)] = []
        if json != nil { headers.append(("Content-Type", "application/json")) }
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        return (headers, json.map { Array($0.utf8) })
    }
}
