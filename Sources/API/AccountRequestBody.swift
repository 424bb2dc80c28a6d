import Foundation
import HTTPServer

/// The JSON object body of an account request, with typed access to its fields.
/// Every failure is an `HTTPError` naming what is wrong: 415 for another media
/// type, 400 for malformed JSON and for a missing or mistyped field.
struct AccountRequestBody {
    private let object: [String: Any]

    init(_ request: HTTPRequest) throws {
        try Self.requireMediaType(of: request, oneOf: ["application/json"])
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

    /// Throws 415 unless the request's `Content-Type` has one of `mediaTypes` (compared
    /// ignoring case; parameters such as `charset` are allowed, RFC 9110 §8.3.1).
    /// A request without a `Content-Type` is refused too.
    static func requireMediaType(of request: HTTPRequest, oneOf mediaTypes: [String]) throws {
        let mediaType = request.headers["Content-Type"].map {
            $0.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        }?.trimmingCharacters(in: .whitespaces)
        guard let mediaType, mediaTypes.contains(where: mediaType.caseInsensitiveEquals) else {
            throw HTTPError(
                .unsupportedMediaType,
                detail: "the request body must be sent as Content-Type: \(mediaTypes.joined(separator: " or "))")
        }
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
