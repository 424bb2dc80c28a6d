import HTTPServer
import TestSupport

/// A response as a client reads it, with its JSON and a problem's `title` and `detail` at hand.
struct TestResponse {
    let response: RawHTTPClient.Response
    let headers: HTTPHeaders
    /// The body as a JSON object (empty when it is not one).
    let json: [String: Any]

    init(_ response: RawHTTPClient.Response) {
        self.response = response
        headers = HTTPHeaders(response.headers)
        json = (try? response.object()) ?? [:]
    }

    var status: Int { response.status }
    var body: [UInt8] { response.body }
    /// For problems: the `title` and `detail` members.
    var title: String? { status >= 400 ? json["title"] as? String : nil }
    var detail: String? { status >= 400 ? json["detail"] as? String : nil }

    /// The `User` of a session body.
    var user: [String: Any] { json["user"] as? [String: Any] ?? [:] }

    var token: String { json["token"] as? String ?? "" }
}
