/// Reads the decimal numbers of query parameters straight from their UTF-8 bytes.
///
/// Most values (`40.712776`, `-73.9`) take the exact fast path of Clinger (1990): a
/// mantissa below 2^53 and a power of ten up to 10^22 are both exact doubles, so one
/// IEEE multiplication or division rounds their product or quotient correctly, which
/// is the very double the standard library's correctly rounded `Double(_:)` returns.
/// Anything else (long mantissas, large exponents) is handed to `Double(_:)` itself.
enum DecimalText {
    /// The value of `[+-]digits[.digits][(e|E)[+-]digits]`, with digits on at least one
    /// side of the point: what `Double(text)` gives for such a text, bit for bit
    /// (infinite when it overflows); nil for any other text.
    static func number(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        switch scan(bytes) {
        case .invalid: return nil
        case .exact(let value): return value
        case .inexact: return Double(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// The value of `[+-]digits`, as `Int(text)` reads it; `.notInteger` for any other text.
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Integer {
        let parsed = { () -> Integer? in
            var index = 0
            var negative = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                negative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            guard index < bytes.count, bytes[index...].allSatisfy(isDigit) else { return .notInteger }
            // 18 digits never overflow an Int; longer runs (leading zeros too) are left to `Int(_:)`.
            guard bytes.count - index <= 18 else { return nil }
            var value = 0
            while index < bytes.count {
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            return .value(negative ? -value : value)
        }()
        return parsed ?? Int(String(decoding: bytes, as: UTF8.self)).map(Integer.value) ?? .outOfRange
    }

    /// What `integer(_:)` read.
    enum Integer: Equatable {
        case value(Int)
        /// Not `[+-]digits`.
        case notInteger
        /// Digits that overflow an `Int`.
        case outOfRange
    }

    private enum Scan {
        /// Not a decimal number.
        case invalid
        /// A decimal number, read exactly.
        case exact(Double)
        /// A decimal number outside the fast path.
        case inexact
    }

    /// The largest mantissa the fast path takes: every integer up to 2^53 is a double.
    private static let mantissaLimit: UInt64 = 1 << 53
    /// 10^0 to 10^22: the powers of ten that are exact doubles.
    private static let powersOfTen: [Double] = (0...22).map { exponent in
        (0..<exponent).reduce(1.0) { power, _ in power * 10 }
    }

    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Scan {
        var index = 0
        var negative = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        var mantissa: UInt64 = 0
        var fits = true
        var digits = 0
        var fractionDigits = 0
        while index < bytes.count, isDigit(bytes[index]) {
            accumulate(bytes[index], into: &mantissa, fits: &fits)
            digits += 1
            index += 1
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < bytes.count, isDigit(bytes[index]) {
                accumulate(bytes[index], into: &mantissa, fits: &fits)
                digits += 1
                fractionDigits += 1
                index += 1
            }
        }
        guard digits > 0 else { return .invalid }
        var exponent = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            var negativeExponent = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                negativeExponent = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            let start = index
            while index < bytes.count, isDigit(bytes[index]) {
                // Past four digits the fast path is out of reach anyway.
                if index - start < 4 { exponent = exponent * 10 + Int(bytes[index] - UInt8(ascii: "0")) } else { fits = false }
                index += 1
            }
            guard index > start else { return .invalid }
            if negativeExponent { exponent = -exponent }
        }
        guard index == bytes.count else { return .invalid }
        exponent -= fractionDigits
        guard fits, exponent >= -22, exponent <= 22 else { return .inexact }
        let magnitude = exponent < 0 ? Double(mantissa) / powersOfTen[-exponent] : Double(mantissa) * powersOfTen[exponent]
        return .exact(negative ? -magnitude : magnitude)
    }

    @inline(__always)
    private static func accumulate(_ digit: UInt8, into mantissa: inout UInt64, fits: inout Bool) {
        guard fits else { return }
        mantissa = mantissa * 10 + UInt64(digit - UInt8(ascii: "0"))
        if mantissa > mantissaLimit { fits = false }
    }

    @inline(__always)
    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
