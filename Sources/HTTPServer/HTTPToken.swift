/// Byte classes of RFC 9110 §5.6.2 and §5.5, looked up in a table on the hot path.
enum HTTPToken {
    /// `tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA`
    static let isTokenCharacter: [Bool] = (0...255).map { value in
        let byte = UInt8(value)
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    @inline(__always)
    static func isToken(_ byte: UInt8) -> Bool { isTokenCharacter[Int(byte)] }

    /// `field-vchar = VCHAR / obs-text`, plus SP and HTAB inside a value (RFC 9110 §5.5).
    /// Every other control byte (NUL, bare CR or LF, DEL) is refused.
    @inline(__always)
    static func isFieldValueByte(_ byte: UInt8) -> Bool {
        byte == 0x09 || (byte >= 0x20 && byte != 0x7F)
    }

    /// Whether `string` is a non-empty token.
    static func isToken(_ string: some StringProtocol) -> Bool {
        !string.isEmpty && string.utf8.allSatisfy(isToken)
    }
}
