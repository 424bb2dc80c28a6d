import API
import Foundation
import TestSupport
import Testing

/// Strings in every catalog body go through `JSONWriter`'s escaping (RFC 8259 §7).
@Suite struct JSONWriterEscapingTests {
    private static func encoded(_ text: String) -> String {
        var writer = JSONWriter()
        writer.string(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test(arguments: [
        ("", #""""#),
        ("plain", #""plain""#),
        ("say \"hi\"", #""say \"hi\"""#),
        (#"back\slash"#, #""back\\slash""#),
        ("line\nbreak\r\ttab", #""line\nbreak\r\ttab""#),
        ("\u{0}\u{1F}", #""\u0000\u001f""#),
        ("\"", #""\"""#),
        ("end\\", #""end\\""#),
        ("Café – Ærø 🗽", "\"Café – Ærø 🗽\""),
    ])
    func escapes(_ text: String, _ expected: String) {
        #expect(Self.encoded(text) == expected)
    }

    @Test func randomStringsRoundTrip() throws {
        var generator = SeededGenerator(seed: 0x15C_A9E)
        let alphabet: [Character] = ["a", "Z", " ", "\"", "\\", "\n", "\t", "\u{1}", "\u{7F}", "é", "🗽", "/"]
        for _ in 0..<2_000 {
            let text = String((0..<Int.random(in: 0...24, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            let decoded = try JSONSerialization.jsonObject(with: Data(Self.encoded(text).utf8), options: .fragmentsAllowed)
            #expect(decoded as? String == text)
        }
    }
}
