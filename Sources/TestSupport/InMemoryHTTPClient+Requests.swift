extension InMemoryHTTPClient {
    /// Sends one HTTP/1.1 request, as `RawHTTPClient.request` writes it, and returns its response.
    public func request(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8]? = nil
    ) throws -> RawHTTPClient.Response {
        received += connection.send(RawHTTPClient.requestBytes(method, target, headers: headers, body: body))
        return try nextResponse(forHead: method == "HEAD")
    }

    /// A GET of `path` with `query`, percent-encoded.
    public func get(_ path: String, query: [(String, String)], headers: [(String, String)] = []) throws -> RawHTTPClient.Response {
        try request("GET", RawHTTPClient.target(path, query: query), headers: headers)
    }

    /// Sends a JSON body, with a bearer token when given.
    public func requestJSON(
        _ method: String, _ target: String, json: String? = nil, token: String? = nil
    ) throws -> RawHTTPClient.Response {
        let (headers, body) = RawHTTPClient.jsonRequestParts(json: json, token: token)
        return try request(method, target, headers: headers, body: body)
    }

    /// Registers the user `name` (password `correct horse battery staple`) and returns its bearer token.
    public func registerUser(named name: String) throws -> String {
        let registered = try requestJSON("POST", "/users", json: #"{"username":"\#(name)","password":"correct horse battery staple"}"#)
        guard registered.status == 201, let token = try registered.object()["token"] as? String else {
            throw RawHTTPClient.ClientError.malformedResponse("registering \(name): \(registered.status) \(registered.bodyText)")
        }
        return token
    }
}
