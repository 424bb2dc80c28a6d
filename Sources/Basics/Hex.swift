/// Lowercase hexadecimal, the one spelling the server writes: entity tags, digests,
/// request IDs, cursors and `\u00XX` escapes. Reading accepts either case.
public enum Hex {
    @usableFromInline
    static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends the two digits of `byte`.
    @inlinable
    public static func append(byte: UInt8, to output: inout [UInt8]) {
        output.append(digits[Int(byte >> 4)])
        output.append(digits[Int(byte & 0x0F)])
    }

    /// Appends two digits for each byte of `bytes`.
    @inlinable
    public static func append(bytes: some Sequence<UInt8>, to output: inout [UInt8]) {
        for byte in bytes { append(byte: byte, to: &output) }
    }

    /// Appends all sixteen digits of `value`, zero-padded: a fixed width sorts and parses simply.
    /// The digits are made by arithmetic on the stack and appended in one copy: entity tags
    /// of every catalog response carry two or more of these.
    @inlinable
    public static func append(_ value: UInt64, to output: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { text in
            write(value, to: text)
            output.append(contentsOf: UnsafeBufferPointer(text))
        }
    }

    /// Writes the sixteen digits of `value`, zero-padded, into the first sixteen bytes of `digits`.
    @inlinable
    public static func write(_ value: UInt64, to digits: UnsafeMutableBufferPointer<UInt8>) {
        precondition(digits.count >= 16, "Hex.write: sixteen digits need sixteen bytes")
        for position in 0..<16 {
            let nibble = UInt8(truncatingIfNeeded: value >> (60 - 4 * position)) & 0x0F
            digits[position] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") - 10 + nibble
        }
    }

    /// `bytes` as two digits each: `[0x0f, 0xa0]` → `"0fa0"`.
    public static func string(_ bytes: some Sequence<UInt8>) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.underestimatedCount * 2)
        append(bytes: bytes, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// `value` as sixteen digits, zero-padded: `255` → `"00000000000000ff"`.
    public static func string(_ value: UInt64) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(16)
        append(value, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// The value of one hex digit (`0-9`, `a-f`, `A-F`), or nil for any other byte.
    @inlinable
    public static func value(ofDigit byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
