import Basics
import HTTPServer

/// The JSON object body of a request, with typed access to its fields: every route
/// reads its body through this one type, so every failure is the same `HTTPError` on
/// every endpoint, naming what is wrong: 415 for another media type, 400 for a body
/// `JSONReader` refuses (malformed, past its limits, a repeated name, not UTF-8; naming
/// the member at fault when there is one), a body that is not an object, a missing or
/// mistyped field and an unknown one. An object inside the body
/// (`objects(_:count:)`) is read the same way, its fields named by their path
/// (`points[3].recordedAt`).
struct JSONBody {
    /// The object's members, as sent.
    let members: [String: JSONValue]
    /// What comes before a field's name in an answer: empty for the body itself.
    private let path: String

    /// - Parameters:
    ///   - shape: what the body should look like (`{"password": string}`), said in every
    ///     answer about the body as a whole (another media type, no JSON, not an object),
    ///     so that each tells the client what to send.
    ///   - mediaTypes: the `Content-Type`s the endpoint takes.
    init(_ request: HTTPRequest, shape: String, mediaTypes: [String] = ["application/json"]) throws {
        try Self.requireMediaType(of: request, oneOf: mediaTypes, shape: shape)
        guard case .object(let members) = try Self.parse(request.body, shape: shape) else {
            throw HTTPError(.badRequest, detail: "the request body must be a JSON object \(shape)")
        }
        self.init(members: members, path: "")
    }

    private init(members: [String: JSONValue], path: String) {
        self.members = members
        self.path = path
    }

    /// For an endpoint that takes no body (`POST /walks`): no body, or `{}` (any
    /// `Content-Type`); anything else is a 400, naming the field when it is an object with one.
    static func requireEmpty(_ request: HTTPRequest) throws {
        guard !request.body.isEmpty else { return }
        let value: JSONValue
        do {
            value = try JSONReader.read(request.body)
        } catch .malformed {
            throw HTTPError(.badRequest, detail: "the request body must be empty or {}")
        } catch {
            throw error.httpError(shape: nil)
        }
        guard case .object(let members) = value else {
            throw HTTPError(.badRequest, detail: "the request body must be empty or {}")
        }
        if let unknown = firstName(in: members.keys) {
            throw HTTPError(.badRequest, detail: "unknown field \(unknown); the request body must be empty or {}")
        }
    }

    /// Throws 415 unless the request's `Content-Type` has one of `mediaTypes` (compared
    /// ignoring case; parameters such as `charset` are allowed, RFC 9110 §8.3.1).
    /// A request without a `Content-Type` (or without a body) is refused too, saying what
    /// to send.
    private static func requireMediaType(of request: HTTPRequest, oneOf mediaTypes: [String], shape: String) throws {
        let mediaType = request.headers["Content-Type"].map {
            ($0.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? "").trimmingSpacesAndTabs()
        }
        guard let mediaType, mediaTypes.contains(where: { mediaType.caseInsensitiveEquals($0) }) else {
            throw HTTPError(
                .unsupportedMediaType,
                detail: "the request body must be \(shape), sent as Content-Type: \(mediaTypes.joined(separator: " or "))")
        }
    }

    /// The body's value, read by `JSONReader` within the body limits.
    private static func parse(_ body: [UInt8], shape: String) throws -> JSONValue {
        do {
            return try JSONReader.read(body)
        } catch {
            throw error.httpError(shape: shape)
        }
    }

    /// The string field `name`; 400 naming it when it is missing or not a string.
    func string(_ name: String) throws -> String {
        switch members[name] {
        case .string(let string)?: return string
        case nil: throw HTTPError(.badRequest, detail: "\(path)\(name) is required")
        case _?: throw HTTPError(.badRequest, detail: "\(path)\(name) must be a string")
        }
    }

    /// The array field `name` of `count` objects, each read as a body of its own whose
    /// answers name its fields `name[index].field`; 400 naming `name` when it is
    /// missing, not an array of objects, or of another length.
    func objects(_ name: String, count: ClosedRange<Int>) throws -> [JSONBody] {
        let field = path + name
        guard let value = members[name] else {
            throw HTTPError(.badRequest, detail: "\(field) is required")
        }
        guard case .array(let items) = value else {
            throw HTTPError(.badRequest, detail: "\(field) must be an array")
        }
        guard count.contains(items.count) else {
            throw HTTPError(
                .badRequest,
                detail: "\(field) must hold \(count.lowerBound) to \(count.upperBound) items, not \(items.count)")
        }
        return try items.enumerated().map { index, item in
            guard case .object(let members) = item else {
                throw HTTPError(.badRequest, detail: "\(field)[\(index)] must be an object")
            }
            return JSONBody(members: members, path: "\(field)[\(index)].")
        }
    }

    /// A JSON number field within `range`; 400 naming it when it is missing, not a
    /// number (`true` and `"40.7"` are not) or out of range.
    func number(_ name: String, in range: ClosedRange<Double>) throws -> Double {
        guard let value = members[name] else {
            throw HTTPError(.badRequest, detail: "\(path)\(name) is required")
        }
        guard case .number(let number) = value else {
            throw HTTPError(.badRequest, detail: "\(path)\(name) must be a number")
        }
        guard range.contains(number) else {
            throw HTTPError(.badRequest, detail: "\(path)\(name) must be between \(range.lowerBound) and \(range.upperBound)")
        }
        return number
    }

    /// A JSON number field that is a whole number (`1900`, also written `1900.0` or
    /// `1.9e3`), of at most 2^53 in magnitude, where every integer is exact; 400 naming it
    /// when it is missing, not a number, has a fraction or is larger.
    func integer(_ name: String) throws -> Int {
        let number = try number(name, in: -Double.infinity...Double.infinity)
        guard number == number.rounded(.towardZero), abs(number) <= Self.exactIntegers else {
            throw HTTPError(.badRequest, detail: "\(path)\(name) must be a whole number")
        }
        return Int(number)
    }

    /// The largest magnitude up to which a double holds every integer (2^53).
    private static let exactIntegers = 9_007_199_254_740_992.0

    /// A JSON boolean field; 400 naming it when it is missing or not `true` or `false`.
    func bool(_ name: String) throws -> Bool {
        switch members[name] {
        case .bool(let value)?: return value
        case nil: throw HTTPError(.badRequest, detail: "\(path)\(name) is required")
        case _?: throw HTTPError(.badRequest, detail: "\(path)\(name) must be true or false")
        }
    }

    /// 400 naming a field the endpoint does not know (the first in code-point order, so the
    /// answer does not depend on the order of the body).
    func rejectUnknownFields(known: Set<String>) throws {
        if let unknown = Self.firstName(in: members.keys.filter { !known.contains($0) }) {
            throw HTTPError(.badRequest, detail: "unknown field \(path)\(unknown)")
        }
    }

    /// The first of `names` in code-point order.
    private static func firstName(in names: some Sequence<String>) -> String? {
        names.min { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
