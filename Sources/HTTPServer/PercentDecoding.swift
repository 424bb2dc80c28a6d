import Basics

/// Percent-decoding of the request-target's path and query (RFC 3986 §2.1).
enum PercentDecoding {
    /// Decodes `%XX` escapes (and `+` as space when `plusIsSpace`, as HTML forms encode
    /// queries). Returns nil for a malformed escape or bytes that are not UTF-8.
    ///
    /// Most paths and query parts have nothing to decode: those become a String straight
    /// from `bytes`. Decoded bytes go to a temporary buffer, never to a heap Array.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, plusIsSpace: Bool) -> String? {
        var isASCII = true
        for byte in bytes {
            if byte == UInt8(ascii: "%") || (plusIsSpace && byte == UInt8(ascii: "+")) {
                return decodeEscapes(bytes, plusIsSpace: plusIsSpace)
            }
            if byte >= 0x80 { isASCII = false }
        }
        return string(bytes, isASCII: isASCII)
    }

    private static func decodeEscapes(_ bytes: UnsafeBufferPointer<UInt8>, plusIsSpace: Bool) -> String? {
        // Decoding never lengthens: one output byte per input byte or per three-byte escape.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { output in
            var count = 0
            var isASCII = true
            var index = 0
            while index < bytes.count {
                var byte = bytes[index]
                if byte == UInt8(ascii: "%") {
                    guard index + 2 < bytes.count, let high = Hex.value(ofDigit: bytes[index + 1]), let low = Hex.value(ofDigit: bytes[index + 2])
                    else { return nil }
                    byte = high << 4 | low
                    index += 3
                } else {
                    if plusIsSpace && byte == UInt8(ascii: "+") { byte = UInt8(ascii: " ") }
                    index += 1
                }
                if byte >= 0x80 { isASCII = false }
                output[count] = byte
                count += 1
            }
            return string(UnsafeBufferPointer(rebasing: output[..<count]), isASCII: isASCII)
        }
    }

    /// ASCII is always valid UTF-8, so only other bytes pay for `String(validating:)`,
    /// which costs several times `String(decoding:)` on short strings.
    @inline(__always)
    private static func string(_ bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String? {
        isASCII ? String(decoding: bytes, as: UTF8.self) : String(validating: bytes, as: UTF8.self)
    }
}
