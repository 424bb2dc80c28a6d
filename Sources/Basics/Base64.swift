/// Base64 (RFC 4648) in the variants the server writes: the standard alphabet (§4) and
/// the URL- and filename-safe one (§5), each padded with `=` or not.
///
/// Decoding is strict, so every value has exactly one accepted spelling: only the
/// variant's alphabet, padding exactly when the variant pads, and no stray bits in the
/// last character (RFC 4648 §3.5). Tokens, cursors and walk IDs rely on that: a second
/// spelling of one token would be a second valid token.
public struct Base64: Sendable {
    public enum Alphabet: Sendable {
        /// `A–Z a–z 0–9 + /` (RFC 4648 §4).
        case standard
        /// `A–Z a–z 0–9 - _` (RFC 4648 §5), safe in URLs and file names.
        case url
    }

    public let alphabet: Alphabet
    public let isPadded: Bool

    public init(alphabet: Alphabet, isPadded: Bool) {
        self.alphabet = alphabet
        self.isPadded = isPadded
    }

    /// Standard alphabet, padded: what most tools print.
    public static let standard = Base64(alphabet: .standard, isPadded: true)
    /// Standard alphabet, no padding: the PHC string format of password hashes.
    public static let standardUnpadded = Base64(alphabet: .standard, isPadded: false)
    /// URL-safe alphabet, no padding: tokens, cursors and IDs in URLs and headers.
    public static let url = Base64(alphabet: .url, isPadded: false)

    private var symbols: [UInt8] {
        alphabet == .standard ? Self.standardSymbols : Self.urlSymbols
    }

    private static let standardSymbols = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let urlSymbols = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let padding = UInt8(ascii: "=")

    public func encode(_ bytes: some Collection<UInt8>) -> String {
        let symbols = symbols
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = iterator.next()
            let group = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            output.append(symbols[Int(group >> 18 & 0x3F)])
            output.append(symbols[Int(group >> 12 & 0x3F)])
            if second != nil {
                output.append(symbols[Int(group >> 6 & 0x3F)])
            } else if isPadded {
                output.append(Self.padding)
            }
            if third != nil {
                output.append(symbols[Int(group & 0x3F)])
            } else if isPadded {
                output.append(Self.padding)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes `text` spells, or nil unless it is this variant's one canonical spelling of them.
    public func decode(_ text: some StringProtocol) -> [UInt8]? {
        // One copy into an array: walking a generic string's UTF-8 view element by
        // element is several times slower (every token of every request comes here).
        let symbols = Array(text.utf8)
        var symbolCount = symbols.count
        if isPadded {
            guard symbolCount % 4 == 0 else { return nil }
            let padding = symbols.reversed().prefix(3).prefix { $0 == Self.padding }.count
            guard padding <= 2 else { return nil }
            symbolCount -= padding
        }
        // A last group of one symbol carries only 6 of a byte's 8 bits.
        guard symbolCount % 4 != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(symbolCount * 3 / 4)
        var group: UInt32 = 0
        var groupSymbols = 0
        for byte in symbols[..<symbolCount] {
            guard let value = value(of: byte) else { return nil }
            group = group << 6 | UInt32(value)
            groupSymbols += 1
            if groupSymbols == 4 {
                output.append(UInt8(truncatingIfNeeded: group >> 16))
                output.append(UInt8(truncatingIfNeeded: group >> 8))
                output.append(UInt8(truncatingIfNeeded: group))
                group = 0
                groupSymbols = 0
            }
        }
        switch groupSymbols {
        case 2:
            // 12 bits: one byte, and the last 4 bits must be zero.
            guard group & 0x0F == 0 else { return nil }
            output.append(UInt8(truncatingIfNeeded: group >> 4))
        case 3:
            // 18 bits: two bytes, and the last 2 bits must be zero.
            guard group & 0x03 == 0 else { return nil }
            output.append(UInt8(truncatingIfNeeded: group >> 10))
            output.append(UInt8(truncatingIfNeeded: group >> 2))
        default:
            break
        }
        return output
    }

    private func value(of byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+") where alphabet == .standard, UInt8(ascii: "-") where alphabet == .url: 62
        case UInt8(ascii: "/") where alphabet == .standard, UInt8(ascii: "_") where alphabet == .url: 63
        default: nil
        }
    }
}
