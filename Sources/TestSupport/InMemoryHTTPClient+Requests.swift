extension InMemoryHTTPClient {
    /// Sends one HTTP/1.1 request, as `RawHTTPClient.request` writes it, and returns its response.
    public func request(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8]? = nil
    ) throws -> RawHTTPClient.Response {
        received += connection.send(RawHTTPClient.requestBytes(method, target, headers: headers, body: body))
        return try nextResponse(forHead: method == "HEAD")
    }

    /// Sends a JSON body, with a bearer token when given.
    public func requestJSON(
        _ method: String, _ target: String, json: String? = nil, token: String? = nil
    ) throws -> RawHTTPClient.Response {
        let (headers, body) = RawHTTPClient.jsonRequestParts(json: json, token: token)
        return try request(method, target, headers: headers, body: body)
    }
}
