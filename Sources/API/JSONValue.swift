import Foundation
import HTTPServer

/// A parsed JSON value that keeps what `JSONSerialization` blurs: `true` is not the
/// number 1, and a member that fails to parse (a number beyond `Double`, such as
/// `1e999`, or a lone surrogate) is reported with its path, so the 400 names it.
enum JSONValue: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses a request body; a 400 naming the member (`home.latitude`) when one is
    /// not valid JSON, or saying the body is not JSON at all.
    init(body: [UInt8]) throws {
        do {
            self = try JSONDecoder().decode(JSONValue.self, from: Data(body))
        } catch let error as DecodingError {
            let path = Self.codingPath(of: error).map(\.stringValue).joined(separator: ".")
            guard !path.isEmpty else { throw HTTPError(.badRequest, detail: "the request body is not valid JSON") }
            throw HTTPError(.badRequest, detail: "\(path) is not a valid JSON value (a number too large, or a broken string)")
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            // The last candidate: its error carries the path of what failed.
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// What the value is, for problem details ("must be a string, not a number").
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    private static func codingPath(of error: DecodingError) -> [any CodingKey] {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            context.codingPath
        @unknown default:
            []
        }
    }
}
