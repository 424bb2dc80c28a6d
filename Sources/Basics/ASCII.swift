/// ASCII byte rules that text protocols (HTTP tokens, header fields, borough names)
/// need: they compare and trim only ASCII, never by Unicode rules, so the result does
/// not depend on the locale or on canonical equivalence.
public enum ASCII {
    /// `byte` with `A`–`Z` mapped to `a`–`z`; every other byte unchanged.
    @inlinable @inline(__always)
    public static func lowercased(_ byte: UInt8) -> UInt8 {
        (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
    }

    /// SP or HTAB: the optional whitespace of HTTP (RFC 9110 §5.6.3 OWS).
    @inlinable @inline(__always)
    public static func isSpaceOrTab(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09
    }

    /// Whether two byte sequences are equal once ASCII letters are lowercased. Compares
    /// their contiguous storage when both have it (native and small strings do), at about
    /// half the cost of zipping the views.
    @inlinable
    public static func caseInsensitiveEquals(_ lhs: some Collection<UInt8>, _ rhs: some Collection<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        let compared = lhs.withContiguousStorageIfAvailable { left in
            rhs.withContiguousStorageIfAvailable { right in
                for index in 0..<left.count where lowercased(left[index]) != lowercased(right[index]) {
                    return false
                }
                return true
            }
        }
        if let compared = compared ?? nil { return compared }
        return zip(lhs, rhs).allSatisfy { lowercased($0) == lowercased($1) }
    }
}
