import Foundation
@testable import HTTPServer

/// What a handler answered: its response, or the problem its `HTTPError` renders to.
struct TestResponse {
    let status: Int
    let headers: HTTPHeaders
    let body: [UInt8]
    /// For problems: the `title` and `detail` members.
    let title: String?
    let detail: String?

    /// A response; a problem's `title` and `detail` are read from its body (what a
    /// `deferred` handler's responder rendered).
    init(_ response: HTTPResponse) {
        status = response.status.code
        headers = response.headers
        body = response.body
        let problem = response.status.code >= 400
            ? (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] : nil
        title = problem?["title"] as? String
        detail = problem?["detail"] as? String
    }

    /// The problem as the server sends it: `problemResponse` renders the body.
    init(_ error: HTTPError) {
        let response = error.problemResponse
        status = response.status.code
        headers = response.headers
        body = response.body
        title = error.title
        detail = error.detail
    }

    /// The body as a JSON object (empty when there is none).
    var json: [String: Any] {
        guard !body.isEmpty, let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
            return [:]
        }
        return object
    }

    /// The `User` of a session body.
    var user: [String: Any] { json["user"] as? [String: Any] ?? [:] }

    var token: String { json["token"] as? String ?? "" }
}
