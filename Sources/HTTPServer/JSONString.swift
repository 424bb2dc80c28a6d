import Basics

/// Writes a JSON string literal (RFC 8259 §7): quotes, backslash and control characters
/// escaped. Runs of bytes that need no escape are copied in one go, not byte by byte.
/// The one escaper of the package: problem details here, every body through `JSONWriter`.
package enum JSONString {
    package static func append(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var runStart = 0
            for (offset, byte) in utf8.enumerated() where byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<offset]))
                appendEscape(of: byte, to: &output)
                runStart = offset + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        output.append(UInt8(ascii: "\""))
    }

    private static func appendEscape(of byte: UInt8, to output: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): output.append(#"\""#)
        case UInt8(ascii: "\\"): output.append(#"\\"#)
        case 0x0A: output.append(#"\n"#)
        case 0x0D: output.append(#"\r"#)
        case 0x09: output.append(#"\t"#)
        default:
            output.append(#"\u00"#)
            Hex.append(byte: byte, to: &output)
        }
    }
}
