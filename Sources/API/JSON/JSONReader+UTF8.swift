/// The encoding of a body: UTF-8 without a byte order mark (RFC 8259 §8.1).
extension JSONReader {
    /// The length of the well-formed UTF-8 sequence that starts at `index` (Unicode
    /// §3.9, Table 3-7), or nil when none does: a stray continuation byte, a truncated
    /// sequence, an overlong form (`C0 80`, `E0 80 80`), a surrogate (`ED A0 80`) or a
    /// code point past U+10FFFF.
    static func wellFormedLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        let length: Int
        let second: ClosedRange<UInt8>
        switch bytes[index] {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
        case 0xE0: (length, second) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
        case 0xED: (length, second) = (3, 0x80...0x9F)
        case 0xF0: (length, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
        case 0xF4: (length, second) = (4, 0x80...0x8F)
        default: return nil
        }
        guard index + length <= bytes.count, second.contains(bytes[index + 1]) else { return nil }
        for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) {
            return nil
        }
        return length
    }

    /// Whether `bytes` begin as a body in another encoding: a byte order mark (UTF-8's,
    /// which RFC 8259 §8.1 forbids, or UTF-16's), or a NUL among the first two bytes,
    /// which is how UTF-16 and UTF-32 text begins (RFC 4627 §3) and never JSON in UTF-8.
    static func startsInAnotherEncoding(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let head = bytes.prefix(3)
        return head.elementsEqual([0xEF, 0xBB, 0xBF]) || head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE])
            || head.prefix(2).contains(0x00)
    }
}
