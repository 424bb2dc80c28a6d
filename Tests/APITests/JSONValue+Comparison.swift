import Foundation

@testable import API

extension JSONValue {
    /// The value of what `JSONSerialization` parsed (the reader's twin). A JSON boolean
    /// arrives as an `NSNumber` too: only its type code (`c`) tells it apart from a number.
    init(foundation parsed: Any) {
        switch parsed {
        case let string as String:
            self = .string(string)
        case let number as NSNumber:
            self = number.objCType.pointee == CChar(UInt8(ascii: "c")) ? .bool(number.boolValue) : .number(number.doubleValue)
        case let array as [Any]:
            self = .array(array.map(JSONValue.init(foundation:)))
        case let object as [String: Any]:
            self = .object(object.mapValues(JSONValue.init(foundation:)))
        default:
            self = .null
        }
    }

    /// Equal, with strings (values and member names) compared code point by code point:
    /// `==` on `String` holds canonically equivalent strings equal, which would hide a
    /// normalization. Numbers compare as doubles (`-0` equals `0`).
    func exactlyEquals(_ other: JSONValue) -> Bool {
        equals(other, strings: { $0.unicodeScalars.elementsEqual($1.unicodeScalars) }, numbers: ==)
    }

    /// Equal but for a fault of `JSONSerialization` the reader does not share: its doubles
    /// are not correctly rounded, off by up to a dozen ulps for some mantissas of 16 digits
    /// or more (the reader's are correctly rounded, checked against `Double(_:)` elsewhere).
    func matchesFoundation(_ other: JSONValue) -> Bool {
        equals(
            other, strings: { $0.unicodeScalars.elementsEqual($1.unicodeScalars) },
            numbers: { $0 == $1 || abs($0 - $1) <= 64 * max($0.ulp, $1.ulp) })
    }

    private func equals(
        _ other: JSONValue, strings: (String, String) -> Bool, numbers: (Double, Double) -> Bool
    ) -> Bool {
        switch (self, other) {
        case (.string(let left), .string(let right)):
            return strings(left, right)
        case (.number(let left), .number(let right)):
            return numbers(left, right)
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { $0.equals($1, strings: strings, numbers: numbers) }
        case (.object(let left), .object(let right)):
            guard left.count == right.count else { return false }
            return left.allSatisfy { name, value in
                guard let match = right.first(where: { strings($0.key, name) }) else { return false }
                return match.value.equals(value, strings: strings, numbers: numbers)
            }
        default:
            return self == other
        }
    }
}
