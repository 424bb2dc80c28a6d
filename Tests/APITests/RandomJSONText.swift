@testable import API
import TestSupport

/// Random JSON documents for the reader's twin test: a value together with a text of
/// it spelled in the many ways RFC 8259 allows (whitespace, escapes of any character,
/// surrogate pairs, number forms), from a seeded generator so that a failure repeats.
struct RandomJSONText {
    var random: SeededGenerator

    /// Characters of strings: ASCII, what must be escaped, combining marks (a decomposed
    /// é), precomposed letters, CJK, astral symbols, a BOM and the line separators.
    static let characters: [Unicode.Scalar] = [
        "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}", "\u{7F}", "e", "\u{301}", "\u{E9}", "\u{212B}",
        "\u{65E5}", "\u{1F600}", "\u{1D11E}", "\u{FEFF}", "\u{2028}", "\u{FFFF}", "\u{10FFFF}",
    ]

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    /// A document nesting at most `depth` containers, and its text.
    mutating func document(depth: Int) -> (value: JSONValue, text: [UInt8]) {
        var text: [UInt8] = []
        space(&text)
        let value = self.value(depth: depth, into: &text)
        space(&text)
        return (value, text)
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &random)
    }

    private mutating func value(depth: Int, into text: inout [UInt8]) -> JSONValue {
        switch int(depth > 0 ? 0...7 : 0...4) {
        case 0:
            text += Array("null".utf8)
            return .null
        case 1:
            let bool = Bool.random(using: &random)
            text += Array((bool ? "true" : "false").utf8)
            return .bool(bool)
        case 2:
            let spelled = number()
            text += Array(spelled.utf8)
            return .number(Double(spelled)!)
        case 3, 4:
            let string = string()
            write(string, into: &text)
            return .string(string)
        case 5, 6:
            text.append(UInt8(ascii: "["))
            var elements: [JSONValue] = []
            for index in 0..<int(0...5) {
                if index > 0 { separator(",", into: &text) }
                space(&text)
                elements.append(value(depth: depth - 1, into: &text))
                space(&text)
            }
            if elements.isEmpty { space(&text) }
            text.append(UInt8(ascii: "]"))
            return .array(elements)
        default:
            text.append(UInt8(ascii: "{"))
            var members: [String: JSONValue] = [:]
            for _ in 0..<int(0...5) {
                let name = string()
                // Names unique as a Swift dictionary sees them (repeats are the reader's refusal).
                guard members[name] == nil else { continue }
                if !members.isEmpty { separator(",", into: &text) }
                space(&text)
                write(name, into: &text)
                separator(":", into: &text)
                space(&text)
                members[name] = value(depth: depth - 1, into: &text)
                space(&text)
            }
            if members.isEmpty { space(&text) }
            text.append(UInt8(ascii: "}"))
            return .object(members)
        }
    }

    /// A finite number in one of JSON's spellings: an integer, a fraction, an exponent, long mantissas.
    private mutating func number() -> String {
        while true {
            let spelled = numberText()
            if Double(spelled)!.isFinite { return spelled }
        }
    }

    private mutating func numberText() -> String {
        let sign = int(0...3) == 0 ? "-" : ""
        let integer = int(0...2) == 0 ? "0" : String(int(1...9)) + digits(int(0...18))
        let fraction = int(0...1) == 0 ? "" : "." + digits(int(1...20))
        let exponent = int(0...2) == 0 ? ["e", "E"][int(0...1)] + ["", "+", "-"][int(0...2)] + String(int(0...300)) : ""
        return sign + integer + fraction + exponent
    }

    private mutating func digits(_ count: Int) -> String {
        String((0..<count).map { _ in Character(String(int(0...9))) })
    }

    private mutating func string() -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<int(0...6) { scalars.append(Self.characters[int(0...(Self.characters.count - 1))]) }
        return String(scalars)
    }

    /// `string` as a JSON string, each character raw or escaped at random (where raw is allowed).
    private mutating func write(_ string: String, into text: inout [UInt8]) {
        text.append(UInt8(ascii: "\""))
        for scalar in string.unicodeScalars {
            let mustEscape = scalar == "\"" || scalar == "\\" || scalar.value < 0x20
            if !mustEscape, int(0...2) > 0 {
                text += Array(String(scalar).utf8)
            } else if let short = ["\"": "\\\"", "\\": "\\\\", "/": "\\/", "\n": "\\n", "\t": "\\t"][scalar], int(0...1) == 0 {
                text += Array(short.utf8)
            } else {
                for unit in String(scalar).utf16 {
                    let hex = String(unit, radix: 16, uppercase: int(0...1) == 0)
                    text += Array(("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
                }
            }
        }
        text.append(UInt8(ascii: "\""))
    }

    private mutating func separator(_ character: Unicode.Scalar, into text: inout [UInt8]) {
        space(&text)
        text.append(UInt8(character.value))
    }

    /// Nothing mostly, else some of the four whitespace characters of RFC 8259 §2.
    private mutating func space(_ text: inout [UInt8]) {
        guard int(0...3) == 0 else { return }
        for _ in 0..<int(1...3) { text.append([0x20, 0x09, 0x0A, 0x0D][int(0...3)]) }
    }

    /// `text` broken one way at random: a byte removed, inserted or replaced, the text cut
    /// short, or a slice of it repeated (which makes repeated names too).
    mutating func mutated(_ text: [UInt8]) -> [UInt8] {
        let bytes: [UInt8] = Array("{}[],:\"\\0-e.+ atfnu1".utf8) + [0x00, 0x80, 0xBF, 0xC0, 0xE0, 0xED, 0xF4, 0xFF, 0x0C]
        var result = text
        switch int(0...4) {
        case 0 where !result.isEmpty:
            result.remove(at: int(0...(result.count - 1)))
        case 1:
            result.insert(bytes[int(0...(bytes.count - 1))], at: int(0...result.count))
        case 2 where !result.isEmpty:
            result[int(0...(result.count - 1))] = bytes[int(0...(bytes.count - 1))]
        case 3:
            result.removeLast(int(0...result.count))
        default:
            let start = int(0...result.count)
            let slice = result[start..<int(start...result.count)]
            result.insert(contentsOf: slice, at: int(0...result.count))
        }
        return result
    }
}
