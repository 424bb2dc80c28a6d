import Foundation
import HTTPServer

/// The JSON object body of an account request, with typed access to its fields.
/// Every failure is an `HTTPError` naming what is wrong: 415 for another media
/// type, 400 for malformed JSON and for a missing or mistyped field.
struct AccountRequestBody {
    private let object: [String: Any]

    init(_ request: HTTPRequest) throws {
        let mediaType = request.headers["Content-Type"].map {
            $0.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        }?.trimmingCharacters(in: .whitespaces)
        guard let mediaType, mediaType.caseInsensitiveEquals("application/json") else {
            throw HTTPError(.unsupportedMediaType, detail: "the request body must be JSON (Content-Type: application/json)")
        }
        let value: Any
        do {
            value = try JSONSerialization.jsonObject(with: Data(request.body))
        } catch {
            throw HTTPError(.badRequest, detail: "the request body is not valid JSON")
        }
        guard let object = value as? [String: Any] else {
            throw HTTPError(.badRequest, detail: "the request body must be a JSON object")
        }
        self.object = object
    }

    /// The string field `name`; 400 naming it when it is missing or not a string.
    func string(_ name: String) throws -> String {
        guard let value = object[name] else {
            throw HTTPError(.badRequest, detail: "\(name) is required")
        }
        guard let string = value as? String else {
            throw HTTPError(.badRequest, detail: "\(name) must be a string")
        }
        return string
    }
}
