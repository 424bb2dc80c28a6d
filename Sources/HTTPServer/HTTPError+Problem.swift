extension HTTPError {
    /// The one place a problem is rendered: RFC 9457 problem details as
    /// `application/problem+json`, `{"type","title","status","detail"}`.
    var problemResponse: HTTPResponse {
        var body: [UInt8] = []
        body.reserveCapacity(96 + title.utf8.count + detail.utf8.count)
        body.append(contentsOf: #"{"type":"#.utf8)
        JSONString.append(type, to: &body)
        body.append(contentsOf: #","title":"#.utf8)
        JSONString.append(title, to: &body)
        body.append(contentsOf: #","status":\#(status.code),"detail":"#.utf8)
        JSONString.append(detail, to: &body)
        body.append(UInt8(ascii: "}"))
        var headers = self.headers
        headers.set("Content-Type", HTTPResponse.problemContentType)
        var response = HTTPResponse(status: status, headers: headers, body: body)
        response.refusal = refusal
        return response
    }
}
