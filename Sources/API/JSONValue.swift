import Foundation

/// A JSON value as `JSONBody` hands it out, keeping what `JSONSerialization` blurs:
/// `true` is not the number 1.
enum JSONValue: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The value of what `JSONSerialization` parsed. A JSON boolean arrives as an
    /// `NSNumber` too: only its type code (`c`) tells it apart from a number.
    init(_ parsed: Any) {
        switch parsed {
        case let string as String:
            self = .string(string)
        case let number as NSNumber:
            self = number.objCType.pointee == CChar(UInt8(ascii: "c")) ? .bool(number.boolValue) : .number(number.doubleValue)
        case let array as [Any]:
            self = .array(array.map(JSONValue.init))
        case let object as [String: Any]:
            self = .object(object.mapValues(JSONValue.init))
        default:
            self = .null
        }
    }

    /// Decoded only to find where a body that `JSONSerialization` refused breaks
    /// (`failingPath(in:)`): arrays and objects are read element by element and a scalar
    /// as each kind in turn, and the member that is none of them fails with its own path.
    init(from decoder: any Decoder) throws {
        if var elements = try? decoder.unkeyedContainer() {
            var array: [JSONValue] = []
            while !elements.isAtEnd { array.append(try elements.decode(JSONValue.self)) }
            self = .array(array)
        } else if let members = try? decoder.container(keyedBy: MemberName.self) {
            var object: [String: JSONValue] = [:]
            for name in members.allKeys { object[name.stringValue] = try members.decode(JSONValue.self, forKey: name) }
            self = .object(object)
        } else {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let bool = try? container.decode(Bool.self) {
                self = .bool(bool)
            } else if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else if let string = try? container.decode(String.self) {
                self = .string(string)
            } else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "not a value Swift can hold"))
            }
        }
    }

    /// An object member's name, as `JSONDecoder` reads it.
    private struct MemberName: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }

        init(stringValue: String) {
            self.stringValue = stringValue
        }

        init?(intValue: Int) {
            nil
        }
    }

    /// The path (`home.latitude`, `points[3].longitude`) of the member that makes `data`
    /// invalid JSON; empty when the body as a whole is not JSON.
    static func failingPath(in data: Data) -> String {
        do {
            _ = try JSONDecoder().decode(JSONValue.self, from: data)
            return ""
        } catch let error as DecodingError {
            return codingPath(of: error).reduce(into: "") { path, key in
                if let index = key.intValue {
                    path += "[\(index)]"
                } else {
                    path += (path.isEmpty ? "" : ".") + key.stringValue
                }
            }
        } catch {
            return ""
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
