import Basics
import Foundation
import Testing
import TestSupportCore

@Suite struct HexTests {
    @Test(arguments: [
        ([UInt8](), ""), ([0x00], "00"), ([0x0F], "0f"), ([0xA0], "a0"), ([0xFF, 0x00, 0x7F], "ff007f"),
        ([0xDE, 0xAD, 0xBE, 0xEF], "deadbeef"),
    ])
    func bytes(bytes: [UInt8], expected: String) {
        #expect(Hex.string(bytes) == expected)
        var appended: [UInt8] = [UInt8(ascii: "x")]
        Hex.append(bytes: bytes, to: &appended)
        #expect(appended == Array(("x" + expected).utf8))
    }

    @Test(arguments: [
        (UInt64(0), "0000000000000000"), (255, "00000000000000ff"), (0x0123_4567_89AB_CDEF, "0123456789abcdef"),
        (UInt64.max, "ffffffffffffffff"), (1 << 63, "8000000000000000"),
    ])
    func sixteenDigitWords(value: UInt64, expected: String) {
        #expect(Hex.string(value) == expected)
    }

    /// Against Foundation's `%02x` and `%016llx` on seeded random input.
    @Test func matchesPrintfOnRandomInput() {
        var generator = SeededGenerator(seed: 17)
        for _ in 0..<200 {
            let bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(Hex.string(bytes) == bytes.map { String(format: "%02x", $0) }.joined())
            let word = generator.next()
            #expect(Hex.string(word) == String(format: "%016llx", word))
        }
    }

    /// Every byte value: a digit of either case, or nil; and writing then reading gives the byte back.
    @Test func digitValuesOfEveryByte() {
        for byte in UInt8.min...UInt8.max {
            let expected = UInt8(String(UnicodeScalar(byte)), radix: 16)
            #expect(Hex.value(ofDigit: byte) == expected, "byte \(byte)")
        }
        for byte in UInt8.min...UInt8.max {
            let digits = Array(Hex.string([byte]).utf8)
            #expect(Hex.value(ofDigit: digits[0]).map { $0 << 4 | Hex.value(ofDigit: digits[1])! } == byte)
        }
    }
}
