import Testing
import TestSupport

@testable import API

/// `DecimalText` must read every query number exactly as the standard library does
/// (ETags carry the bit pattern, and distances follow from it), and refuse the same
/// texts as the grammar `[+-]digits[.digits][(e|E)[+-]digits]`.
@Suite struct DecimalTextTests {
    /// The oracle: the grammar, checked by a regular expression, then `Double(_:)`.
    private static func expectedNumber(_ text: String) -> Double? {
        guard text.wholeMatch(of: /[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?/) != nil else { return nil }
        return Double(text)
    }

    /// `DecimalText` reads a parameter's bytes as sent.
    private static func number(_ text: String) -> Double? {
        var text = text
        return text.withUTF8(DecimalText.number)
    }

    private static func integer(_ text: String) -> DecimalText.Integer {
        var text = text
        return text.withUTF8(DecimalText.integer)
    }

    private static func expectedInteger(_ text: String) -> DecimalText.Integer {
        guard text.wholeMatch(of: /[+-]?[0-9]+/) != nil else { return .notInteger }
        return Int(text).map(DecimalText.Integer.value) ?? .outOfRange
    }

    /// Texts of every shape: coordinates as clients print them, long mantissas, leading
    /// and trailing zeros, exponents near the fast path's edge, and broken ones.
    private static func randomText(_ generator: inout SeededGenerator) -> String {
        let digits = "0123456789"
        func run(_ range: ClosedRange<Int>) -> String {
            String((0..<Int.random(in: range, using: &generator)).map { _ in digits.randomElement(using: &generator)! })
        }
        var text = ["", "", "-", "+"].randomElement(using: &generator)!
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: text += String(format6(Double.random(in: -180...180, using: &generator)))
        case 1: text += run(0...3) + "." + run(0...9)
        case 2: text += run(0...20) + (Bool.random(using: &generator) ? "." + run(0...20) : "")
        default: text += run(1...17)
        }
        if Int.random(in: 0..<4, using: &generator) == 0 {
            text += ["e", "E"].randomElement(using: &generator)! + ["", "-", "+"].randomElement(using: &generator)! + run(0...5)
        }
        if Int.random(in: 0..<20, using: &generator) == 0 {
            let broken = ["x", " ", ".", "-", "e", "inf", "nan", "0x1"].randomElement(using: &generator)!
            text.insert(contentsOf: broken, at: text.index(text.startIndex, offsetBy: Int.random(in: 0...text.count, using: &generator)))
        }
        return text
    }

    /// `%.6f` without Foundation: what the benchmark pools and most clients send.
    private static func format6(_ value: Double) -> String {
        let micro = Int((abs(value) * 1_000_000).rounded())
        let fraction = String(micro % 1_000_000)
        return (value < 0 ? "-" : "") + "\(micro / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    @Test func randomTextsReadAsTheStandardLibrary() {
        var generator = SeededGenerator(seed: 0xDEC1_3A1)
        for _ in 0..<20_000 {
            let text = Self.randomText(&generator)
            let expected = Self.expectedNumber(text)
            #expect(Self.number(text)?.bitPattern == expected?.bitPattern, "\(text)")
            #expect(Self.integer(text) == Self.expectedInteger(text), "\(text)")
        }
    }

    @Test(arguments: [
        "5.", ".5", "-.5", "+5", "-0", "-0.0", "0", "1e999", "-1e999", "0e99999", "1e-400", "9007199254740993",
        "9007199254740992", "900719925474099.3", "1e22", "1e23", "1.5e-22", "123456789012345678901234567890",
        "40.712776", "-73.935242", "00000000000000000000001.5", "1E5", "1e+5", "5.e3",
    ])
    func edgeNumbersReadAsTheStandardLibrary(_ text: String) {
        #expect(Self.number(text)?.bitPattern == Self.expectedNumber(text)?.bitPattern)
    }

    @Test(arguments: ["", ".", "-", "+", "e5", ".e5", "5e", "5e+", "--5", "5..0", "0x10", "inf", "nan", " 5", "5 ", "1,5"])
    func nonDecimalsAreRefused(_ text: String) {
        #expect(Self.number(text) == nil)
    }

    @Test(arguments: [
        "0", "-0", "+7", "123456789012345678", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
        "0000000000000000000000042", "", "-", "+", "1.0", "1e3", " 1", "99999999999999999999999",
    ])
    func edgeIntegersReadAsTheStandardLibrary(_ text: String) {
        #expect(Self.integer(text) == Self.expectedInteger(text))
    }
}
