import Foundation
import Testing
import TestSupport

@testable import API

/// `JSONReader`: every limit and every error, case by case (the twin test against
/// `JSONSerialization` is `JSONReaderTwinTests`).
@Suite struct JSONReaderTests {
    static func read(_ text: String) -> Result<JSONValue, JSONReaderError> {
        read(Array(text.utf8))
    }

    static func read(_ bytes: [UInt8]) -> Result<JSONValue, JSONReaderError> {
        Result { () throws(JSONReaderError) in try JSONReader.read(bytes) }
    }

    /// `count` arrays nested, innermost holding `inner`.
    static func nested(_ count: Int, _ inner: String = "") -> String {
        String(repeating: "[", count: count) + inner + String(repeating: "]", count: count)
    }

    /// `count` objects nested, each the member `a` of the one around it.
    static func nestedObjects(_ count: Int) -> String {
        String(repeating: #"{"a":"#, count: count - 1) + "{}" + String(repeating: "}", count: count - 1)
    }

    @Test func depth32IsReadAnd33IsRefused() throws {
        #expect(throws: Never.self) { try Self.read(Self.nested(32)).get() }
        #expect(throws: Never.self) { try Self.read(Self.nested(32, "1,2")).get() }
        #expect(throws: Never.self) { try Self.read(Self.nestedObjects(32)).get() }
        #expect(Self.read(Self.nested(33)) == .failure(.tooDeep))
        #expect(Self.read(Self.nested(33, #"{"a":1}"#)) == .failure(.tooDeep))
        #expect(Self.read(Self.nested(32, "{}")) == .failure(.tooDeep), "an empty object is a level too")
        #expect(Self.read(Self.nestedObjects(33)) == .failure(.tooDeep))
        // Refused at the 33rd opening, before the rest is looked at.
        #expect(Self.read(Self.nested(33) + "garbage") == .failure(.tooDeep))
        #expect(Self.read(String(repeating: "[", count: 60_000)) == .failure(.tooDeep))
        // The value read at depth 32 is whole.
        let deep = try Self.read(Self.nested(32, "7")).get()
        var value = deep
        for _ in 0..<32 {
            guard case .array(let elements) = value, elements.count == 1 else { Issue.record("not one element"); return }
            value = elements[0]
        }
        #expect(value == .number(7))
    }

    @Test func tenThousandValuesAreReadAnd10001Refused() throws {
        // The array is one value: 1 + 9,999 = 10,000.
        let atLimit = "[" + Array(repeating: "0", count: 9_999).joined(separator: ",") + "]"
        guard case .array(let elements) = try Self.read(atLimit).get() else { Issue.record("not an array"); return }
        #expect(elements.count == 9_999)
        let pastLimit = "[" + Array(repeating: "0", count: 10_000).joined(separator: ",") + "]"
        #expect(Self.read(pastLimit) == .failure(.tooManyValues))
        // Containers count, member names do not.
        let members = (0..<9_999).map { #""m\#($0)":null"# }.joined(separator: ",")
        #expect(throws: Never.self) { try Self.read("{" + members + "}").get() }
        #expect(Self.read("[{" + members + "}]") == .failure(.tooManyValues))
        let emptyArrays = "[" + Array(repeating: "[]", count: 9_999).joined(separator: ",") + "]"
        #expect(throws: Never.self) { try Self.read(emptyArrays).get() }
        #expect(Self.read("[" + emptyArrays + "]") == .failure(.tooManyValues))
        // Refused at the 10,001st value: what follows is not read.
        #expect(Self.read(pastLimit + ",broken") == .failure(.tooManyValues))
    }

    @Test(arguments: [
        (#"{"a":1,"a":2}"#, "a"),
        (#"{"a":1,"b":2,"a":1}"#, "a"),
        (#"{"home":{"latitude":40.7,"longitude":-74,"latitude":40.8}}"#, "home.latitude"),
        (#"{"points":[{"x":1},{"x":1,"x":1}]}"#, "points[1].x"),
        (#"[{},[{"":1,"":2}]]"#, "[1][0]."),
        (#"{"a":{"b":1},"a":{"b":2}}"#, "a"),
        (#"{"a":1,"\u0061":2}"#, "a"),
        // Canonically equivalent names are one key of a Swift dictionary: refused, never merged.
        (#"{"\u00e9":1,"e\u0301":2}"#, "e\u{301}"),
        (nested(31, #"{"deep":1,"deep":2}"#), String(repeating: "[0]", count: 31) + ".deep"),
    ] as [(String, String)])
    func aRepeatedNameIsRefusedNamingIt(text: String, path: String) {
        #expect(Self.read(text) == .failure(.repeatedName(path: path)))
    }

    @Test func aRepeatedNameIsFoundAmongManyInLinearTime() {
        // 5,000 distinct names then one repeated: a quadratic check would compare 12.5 M pairs.
        let members = (0..<5_000).map { #""n\#($0)":0"# }.joined(separator: ",")
        #expect(Self.read("{" + members + #","n4999":1}"#) == .failure(.repeatedName(path: "n4999")))
    }

    @Test(arguments: [
        ("UTF-8 byte order mark", [0xEF, 0xBB, 0xBF] + Array("{}".utf8)),
        ("UTF-8 byte order mark alone", [0xEF, 0xBB, 0xBF]),
        ("UTF-16LE byte order mark", [0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00]),
        ("UTF-16BE byte order mark", [0xFE, 0xFF, 0x00, 0x7B, 0x00, 0x7D]),
        ("UTF-16LE", Array("{\"a\":1}".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })),
        ("UTF-16BE", Array("{\"a\":1}".utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })),
        ("UTF-32LE", [0x5B, 0x00, 0x00, 0x00, 0x5D, 0x00, 0x00, 0x00]),
        ("UTF-32BE", [0x00, 0x00, 0x00, 0x5B, 0x00, 0x00, 0x00, 0x5D]),
        ("Latin-1 in a string", Array(#"{"name":"Caf"#.utf8) + [0xE9] + Array(#""}"#.utf8)),
        ("a stray continuation byte", Array(#"[""#.utf8) + [0x80] + Array(#""]"#.utf8)),
        ("an overlong slash", Array(#"[""#.utf8) + [0xC0, 0xAF] + Array(#""]"#.utf8)),
        ("an overlong NUL", Array(#"[""#.utf8) + [0xC0, 0x80] + Array(#""]"#.utf8)),
        ("an overlong three-byte form", Array(#"[""#.utf8) + [0xE0, 0x80, 0xAF] + Array(#""]"#.utf8)),
        ("an overlong four-byte form", Array(#"[""#.utf8) + [0xF0, 0x80, 0x80, 0xAF] + Array(#""]"#.utf8)),
        ("a high surrogate in UTF-8", Array(#"[""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""]"#.utf8)),
        ("a low surrogate in UTF-8", Array(#"[""#.utf8) + [0xED, 0xBF, 0xBF] + Array(#""]"#.utf8)),
        ("a surrogate pair in UTF-8 (CESU-8)", Array(#"[""#.utf8) + [0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80] + Array(#""]"#.utf8)),
        ("past U+10FFFF", Array(#"[""#.utf8) + [0xF4, 0x90, 0x80, 0x80] + Array(#""]"#.utf8)),
        ("an F5 lead byte", Array(#"[""#.utf8) + [0xF5, 0x80, 0x80, 0x80] + Array(#""]"#.utf8)),
        ("a truncated sequence", Array(#"[""#.utf8) + [0xE2, 0x82] + Array(#""]"#.utf8)),
        ("a truncated sequence at the end", Array(#"[""#.utf8) + [0xE2, 0x82]),
        ("0xFF in a string", Array(#"[""#.utf8) + [0xFF] + Array(#""]"#.utf8)),
        ("0xFF after the value", Array("[1]".utf8) + [0xFF]),
        ("0xFE between values", Array("[1,".utf8) + [0xFE] + Array("2]".utf8)),
        ("invalid bytes after a syntax error", Array("[1 x".utf8) + [0xFF]),
        ("a member name in Latin-1", Array(#"{""#.utf8) + [0xE9] + Array(#"":1}"#.utf8)),
    ] as [(String, [UInt8])])
    func aBodyThatIsNotUTF8IsRefused(name: String, bytes: [UInt8]) {
        #expect(Self.read(bytes) == .failure(.notUTF8), "\(name)")
    }

    /// A string of any bytes (but `"`, `\` and control characters) is read exactly when
    /// the bytes are well-formed UTF-8, as the standard library's validation says.
    @Test func stringBytesAreReadExactlyWhenTheyAreUTF8() throws {
        var random = SeededGenerator(seed: 8259)
        let leads: [UInt8] = [0x41, 0x7F, 0x80, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF]
        let continuations: [UInt8] = [0x20, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF]
        var readCount = 0
        for _ in 0..<20_000 {
            var content: [UInt8] = []
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                content.append(leads.randomElement(using: &random)!)
                for _ in 0..<Int.random(in: 0...3, using: &random) { content.append(continuations.randomElement(using: &random)!) }
            }
            let text = [UInt8(ascii: "\"")] + content + [UInt8(ascii: "\"")]
            if let expected = String(validating: content, as: UTF8.self) {
                let value = try Self.read(text).get()
                #expect(value.exactlyEquals(.string(expected)), "\(content)")
                readCount += 1
            } else {
                #expect(Self.read(text) == .failure(.notUTF8), "\(content)")
            }
        }
        #expect(readCount > 500)
    }

    @Test(arguments: [
        (#"{"a":"\ud800"}"#, "a"),
        (#"{"a":"\udc00"}"#, "a"),
        (#"{"a":"x\ud800y"}"#, "a"),
        (#"{"a":"\ud800\u0041"}"#, "a"),
        (#"{"a":"\ud800\ud800"}"#, "a"),
        (#"{"a":"\udfff\ud800"}"#, "a"),
        (#"{"a":"\ud800\n"}"#, "a"),
        (#"{"home":{"name":"\uDBFF"}}"#, "home.name"),
        (#"{"points":[1,"\ud834"]}"#, "points[1]"),
        (#"["\ud800"]"#, "[0]"),
        (#""\ud800""#, ""),
        (#"{"home":{"\ud800":1}}"#, "home"),
    ] as [(String, String)])
    func aLoneSurrogateEscapeIsRefusedNamingItsMember(text: String, path: String) {
        #expect(Self.read(text) == .failure(.loneSurrogate(path: path)))
    }

    /// Names are hashed in normalized form, which sorts each run of combining marks:
    /// runs of at most 30 (UAX #15 stream-safe text) keep that linear.
    @Test func aMemberNameWithMoreThan30CombiningMarksInARowIsRefused() throws {
        let marks = (0..<31).map { $0 % 2 == 0 ? "\u{301}" : "\u{316}" }.joined()
        #expect(Self.read(#"{"a\#(marks.dropLast())":1}"#).map { _ in true } == .success(true))
        #expect(Self.read(#"{"a\#(marks)":1}"#) == .failure(.nameNotStreamSafe(path: "")))
        #expect(Self.read(#"{"home":{"x\#(marks)y":1}}"#) == .failure(.nameNotStreamSafe(path: "home")))
        // Escaped marks count as well, and the Tibetan vowels that decompose into two marks count twice.
        let escaped = String(repeating: #"\u0301"#, count: 31)
        #expect(Self.read(#"[{"a\#(escaped)":1}]"#) == .failure(.nameNotStreamSafe(path: "[0]")))
        #expect(Self.read("{\"\(String(repeating: "\u{F73}", count: 16))\":1}") == .failure(.nameNotStreamSafe(path: "")))
        #expect(Self.read("{\"\(String(repeating: "\u{F73}", count: 15))\":1}").map { _ in true } == .success(true))
        // A starter ends a run; string values are not names and may hold any run.
        #expect(throws: Never.self) { try Self.read(#"{"\#(marks.dropLast())a\#(marks.dropLast())":1}"#).get() }
        #expect(throws: Never.self) { try Self.read(#"{"a":"a\#(String(repeating: marks, count: 100))"}"#).get() }
    }

    @Test(arguments: [
        (#"{"home":{"latitude":1e999,"longitude":0}}"#, "home.latitude"),
        (#"{"a":-1e999}"#, "a"),
        (#"{"a":1.8e308}"#, "a"),
        (#"{"points":[{"latitude":40.7,"longitude":1E+400}]}"#, "points[0].longitude"),
        ("[1e999]", "[0]"),
        ("1e999", ""),
        ("[" + String(repeating: "9", count: 400) + "]", "[0]"),
    ] as [(String, String)])
    func aNumberBeyondDoubleIsRefusedNamingItsMember(text: String, path: String) {
        #expect(Self.read(text) == .failure(.numberOutOfRange(path: path)))
    }

    @Test(arguments: [
        ("", 0), (" ", 1), ("{", 1), ("[1,]", 3), (#"{"a":1,}"#, 7), ("[1 2]", 3), ("{}{}", 2), ("{} x", 3), ("[1],", 3),
        ("1 2", 2), ("01", 1), ("-01", 2), ("1.", 2), (".5", 0), ("+1", 0), ("1e", 2), ("1e+", 3), ("-", 1), ("--1", 1),
        ("NaN", 0), ("Infinity", 0), ("-Infinity", 1), ("tru", 3), ("nul", 3), ("True", 0), ("nulll", 4), (#""abc"#, 4),
        ("\"a\u{1}\"", 2), ("\"a\tb\"", 2), ("\"a\nb\"", 2), (#""\q""#, 2), (#""\u12G4""#, 5), (#""\u12""#, 5), (#""\"#, 2),
        ("'a'", 0), ("{a:1}", 1), (#"{"a" 1}"#, 5), (#"{"a":}"#, 5), (#"{1:2}"#, 1), ("[,1]", 1), ("\u{C}{}", 0),
        ("\u{A0}{}", 0), ("{}\u{0}", 2), ("[\"\u{7F}\"", 4), ("[1]]", 3), ("]", 0), (#"{"a":1]"#, 6), (#"[1}"#, 2),
    ] as [(String, Int)])
    func malformedTextIsRefusedAtItsFirstBadByte(text: String, offset: Int) {
        #expect(Self.read(text) == .failure(.malformed(offset: offset)), "\(text.debugDescription)")
    }

    @Test func whitespaceAroundAndBetweenIsRead() throws {
        let value = try Self.read(" \t\r\n{ \"a\" :\n[ 1 ,\t2 ] , \"b\":\r\"c\" }\n\r\t ").get()
        #expect(value == .object(["a": .array([.number(1), .number(2)]), "b": .string("c")]))
        #expect(try Self.read(" 0 ").get() == .number(0))
    }

    @Test(arguments: [
        ("null", JSONValue.null), ("true", .bool(true)), ("false", .bool(false)), ("0", .number(0)), ("-0", .number(-0.0)),
        ("1E+2", .number(100)), ("1e-2", .number(0.01)), ("0.1", .number(0.1)), ("-12.5e1", .number(-125)),
        ("1e-400", .number(0)), ("9007199254740993", .number(9_007_199_254_740_992)),
        ("0.1000000000000000055511151231257827", .number(0.1)),
        ("123456789012345678901234567890", .number(Double("123456789012345678901234567890")!)),
        ("1.7976931348623157e308", .number(.greatestFiniteMagnitude)), ("5e-324", .number(.leastNonzeroMagnitude)),
        (#""""#, .string("")), (#""\"\\\/\b\f\n\r\t""#, .string("\"\\/\u{8}\u{C}\n\r\t")),
        (#""\u0000\u001f\u00E9\u2028""#, .string("\u{0}\u{1F}\u{E9}\u{2028}")),
        (#""\ud83d\ude00 \uD834\uDD1E""#, .string("😀 𝄞")), ("\"\u{FEFF}é日😀\"", .string("\u{FEFF}é日😀")),
        ("[]", .array([])), ("{}", .object([:])), (#"[null,{"":[]}]"#, .array([.null, .object(["": .array([])])])),
    ] as [(String, JSONValue)])
    func valuesAreReadAsSent(text: String, expected: JSONValue) throws {
        let value = try Self.read(text).get()
        #expect(value.exactlyEquals(expected), "\(text)")
    }

    @Test func negativeZeroKeepsItsSign() throws {
        guard case .number(let zero) = try Self.read("-0.0").get() else { Issue.record("not a number"); return }
        #expect(zero.sign == .minus)
    }

    /// Strings come out as sent: a decomposed é stays decomposed, a precomposed one precomposed.
    @Test func stringsAreNotNormalized() throws {
        let decomposed = "e\u{301}"
        let value = try Self.read("[\"\(decomposed)\", \"\\u0065\\u0301\", \"\u{E9}\", \"\u{212B}\"]").get()
        guard case .array(let strings) = value else { Issue.record("not an array"); return }
        let scalars = strings.map { element -> [UInt32] in
            guard case .string(let string) = element else { return [] }
            return string.unicodeScalars.map(\.value)
        }
        #expect(scalars == [[0x65, 0x301], [0x65, 0x301], [0xE9], [0x212B]])
    }

    @Test func problemsNameWhatIsWrong() {
        func detail(_ error: JSONReaderError, shape: String? = nil) -> String {
            error.httpError(shape: shape).detail
        }
        #expect(JSONReaderError.tooDeep.httpError(shape: nil).status == .badRequest)
        #expect(detail(.notUTF8).contains("UTF-8 without a byte order mark"))
        #expect(detail(.tooDeep).contains("depth") && detail(.tooDeep).contains("32"))
        #expect(detail(.tooManyValues).contains("10000 values"))
        #expect(detail(.repeatedName(path: "home.latitude")).hasPrefix("home.latitude "))
        #expect(detail(.nameNotStreamSafe(path: "home")) == "a member name of home holds more than 30 combining marks in a row")
        #expect(detail(.numberOutOfRange(path: "points[3].longitude")) == "points[3].longitude is not a valid JSON value (a number too large for a double)")
        #expect(detail(.loneSurrogate(path: "displayName")).hasPrefix("displayName is not a valid JSON value"))
        #expect(detail(.loneSurrogate(path: "")).hasPrefix("the request body is not a valid JSON value"))
        #expect(detail(.malformed(offset: 4), shape: #"{"points"}"#) == #"the request body is not valid JSON (at byte 4); expected {"points"}"#)
    }
}
