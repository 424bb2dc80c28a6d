extension RawHTTPClient {
    /// Sends one HTTP/1.1 request on this connection (keep-alive) and reads its response.
    public func request(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8]? = nil
    ) throws -> Response {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers {
            head += "\(name): \(value)\r\n"
        }
        if let body {
            head += "Content-Length: \(body.count)\r\n"
        }
        try send(Array((head + "\r\n").utf8) + (body ?? []))
        return try readResponse(forHead: method == "HEAD")
    }

    /// Sends a JSON body, with a bearer token when given.
    public func requestJSON(_ method: String, _ target: String, json: String? = nil, token: String? = nil) throws -> Response {
        var headers: [(String, String)] = []
        if json != nil { headers.append(("Content-Type", "application/json")) }
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        return try request(method, target, headers: headers, body: json.map { Array($0.utf8) })
    }
}
