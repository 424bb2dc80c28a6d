import Basics
import Foundation
import HTTPServer

/// The JSON object body of an account or walk request, with typed access to its fields.
/// Every failure is an `HTTPError` naming what is wrong: 415 for another media
/// type, 400 for malformed JSON, a missing or mistyped field and an unknown one.
/// An object inside the body (`objects(_:count:)`) is read the same way, its fields
/// named by their path (`points[3].recordedAt`).
struct AccountRequestBody {
    private let object: [String: Any]
    /// What comes before a field's name in an answer: empty for the body itself.
    private let path: String

    /// - Parameter shape: what the body should look like, added to the detail of a body
    ///   that is not JSON, so that answer names the fields too.
    init(_ request: HTTPRequest, shape: String? = nil) throws {
        try Self.requireMediaType(of: request, oneOf: ["application/json"])
        let value: Any
        do {
            value = try JSONSerialization.jsonObject(with: Data(request.body))
        } catch {
            throw HTTPError(.badRequest, detail: "the request body is not valid JSON" + (shape.map { "; expected \($0)" } ?? ""))
        }
        guard let object = value as? [String: Any] else {
            throw HTTPError(.badRequest, detail: "the request body must be a JSON object" + (shape.map { " \($0)" } ?? ""))
        }
        self.object = object
        path = ""
    }

    private init(object: [String: Any], path: String) {
        self.object = object
        self.path = path
    }

    /// Throws 415 unless the request's `Content-Type` has one of `mediaTypes` (compared
    /// ignoring case; parameters such as `charset` are allowed, RFC 9110 §8.3.1).
    /// A request without a `Content-Type` is refused too.
    static func requireMediaType(of request: HTTPRequest, oneOf mediaTypes: [String]) throws {
        let mediaType = request.headers["Content-Type"].map {
            ($0.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? "").trimmingSpacesAndTabs()
        }
        guard let mediaType, mediaTypes.contains(where: { mediaType.caseInsensitiveEquals($0) }) else {
            throw HTTPError(
                .unsupportedMediaType,
                detail: "the request body must be sent as Content-Type: \(mediaTypes.joined(separator: " or "))")
        }
    }

    /// The string field `name`; 400 naming it when it is missing or not a string.
    func string(_ name: String) throws -> String {
        guard let value = object[name] else {
            throw HTTPError(.badRequest, detail: "\(path)\(name) is required")
        }
        guard let string = value as? String else {
            throw HTTPError(.badRequest, detail: "\(path)\(name) must be a string")
        }
        return string
    }

    /// The array field `name` of `count` objects, each read as a body of its own whose
    /// answers name its fields `name[index].field`; 400 naming `name` when it is
    /// missing, not an array of objects, or of another length.
    func objects(_ name: String, count: ClosedRange<Int>) throws -> [AccountRequestBody] {
        let field = path + name
        guard let value = object[name] else {
            throw HTTPError(.badRequest, detail: "\(field) is required")
        }
        guard let array = value as? [Any] else {
            throw HTTPError(.badRequest, detail: "\(field) must be an array")
        }
        guard count.contains(array.count) else {
            throw HTTPError(
                .badRequest,
                detail: "\(field) must hold \(count.lowerBound) to \(count.upperBound) items, not \(array.count)")
        }
        return try array.enumerated().map { index, item in
            guard let object = item as? [String: Any] else {
                throw HTTPError(.badRequest, detail: "\(field)[\(index)] must be an object")
            }
            return AccountRequestBody(object: object, path: "\(field)[\(index)].")
        }
    }

    /// A finite JSON number field within `range`; 400 naming it when it is missing, not a
    /// number (`true` and `"40.7"` are not) or out of range.
    func number(_ name: String, in range: ClosedRange<Double>) throws -> Double {
        guard let value = object[name] else {
            throw HTTPError(.badRequest, detail: "\(path)\(name) is required")
        }
        // JSON booleans arrive as NSNumbers too; only their type code ("c") tells them apart.
        guard let number = value as? NSNumber, !(value is String), number.objCType.pointee != CChar(UInt8(ascii: "c")),
            number.doubleValue.isFinite
        else {
            throw HTTPError(.badRequest, detail: "\(path)\(name) must be a number")
        }
        guard range.contains(number.doubleValue) else {
            throw HTTPError(.badRequest, detail: "\(path)\(name) must be between \(range.lowerBound) and \(range.upperBound)")
        }
        return number.doubleValue
    }

    /// 400 naming a field the endpoint does not know (the first in code-point order, so the
    /// answer does not depend on the order of the body).
    func rejectUnknownFields(known: Set<String>) throws {
        if let unknown = object.keys.filter({ !known.contains($0) }).min(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            throw HTTPError(.badRequest, detail: "unknown field \(path)\(unknown)")
        }
    }
}
