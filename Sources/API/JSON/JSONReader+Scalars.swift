import Basics

/// Strings, numbers and literals (RFC 8259 §3, §6, §7).
extension JSONReader {
    /// Reads the string whose opening quote is at `position`, and moves past its closing
    /// quote. Runs without escapes are copied whole; the bytes are not normalized.
    ///
    /// - Parameter depth: the open containers the string is in (`path(through:)`), for
    ///   the path of a lone surrogate escape.
    mutating func readString(depth: Int) throws(JSONReaderError) -> String {
        position += 1
        var runStart = position
        var hasEscapes = false
        unescaped.removeAll(keepingCapacity: true)
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\""):
                let run = UnsafeBufferPointer(rebasing: bytes[runStart..<position])
                position += 1
                guard hasEscapes else { return String(decoding: run, as: UTF8.self) }
                unescaped.append(contentsOf: run)
                return String(decoding: unescaped, as: UTF8.self)
            case UInt8(ascii: "\\"):
                unescaped.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
                hasEscapes = true
                try readEscape(depth: depth)
                runStart = position
            case 0x00..<0x20:
                // Control characters must be escaped (§7).
                throw unexpected()
            case 0x20..<0x80:
                position += 1
            default:
                guard let length = Self.wellFormedLength(bytes, at: position) else { throw .notUTF8 }
                position += length
            }
        }
        throw unexpected()
    }

    /// Decodes the escape whose backslash is at `position` into `unescaped`, and moves past it.
    /// A `\u` escape of a surrogate must be a high one followed by a `\u` escape of a low
    /// one (§7, §8.2): together they are one code point.
    private mutating func readEscape(depth: Int) throws(JSONReaderError) {
        position += 1
        guard position < bytes.count else { throw unexpected() }
        let simple: UInt8
        switch bytes[position] {
        case UInt8(ascii: "\""): simple = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): simple = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): simple = UInt8(ascii: "/")
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"):
            position += 1
            let unit = try readHexQuad()
            var scalar = UInt32(unit)
            if (0xD800...0xDBFF).contains(unit) {
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
                else { throw .loneSurrogate(path: path(through: depth)) }
                position += 2
                let low = try readHexQuad()
                guard (0xDC00...0xDFFF).contains(low) else { throw .loneSurrogate(path: path(through: depth)) }
                scalar = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(unit) {
                throw .loneSurrogate(path: path(through: depth))
            }
            // Never nil: surrogates were handled above, and four hex digits (or a pair) stay within U+10FFFF.
            if let scalar = Unicode.Scalar(scalar) {
                UTF8.encode(scalar) { unescaped.append($0) }
            }
            return
        default:
            throw unexpected()
        }
        unescaped.append(simple)
        position += 1
    }

    /// The four hex digits at `position`, moving past them.
    private mutating func readHexQuad() throws(JSONReaderError) -> UInt16 {
        var unit: UInt16 = 0
        for _ in 0..<4 {
            guard position < bytes.count, let digit = Hex.value(ofDigit: bytes[position]) else { throw unexpected() }
            unit = unit << 4 | UInt16(digit)
            position += 1
        }
        return unit
    }

    /// Reads the number at `position`: its grammar is checked here (§6: no `+`, no leading
    /// zeros, digits on both sides of a point, no `NaN` or `Infinity`), its value is the
    /// correctly rounded `Double` of its text (`DecimalText`, which `Double(_:)` backs).
    /// `depth` is as for `readString(depth:)`, for the path of a number out of range.
    mutating func readNumber(depth: Int) throws(JSONReaderError) -> Double {
        let start = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else { throw unexpected() }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            skipDigits()
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else { throw unexpected() }
            skipDigits()
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < bytes.count, isDigit(bytes[position]) else { throw unexpected() }
            skipDigits()
        }
        // DecimalText reads every text of this grammar; it is infinite beyond `Double`'s range.
        guard let value = DecimalText.number(UnsafeBufferPointer(rebasing: bytes[start..<position])), value.isFinite else {
            throw .numberOutOfRange(path: path(through: depth))
        }
        return value
    }

    /// Reads `literal` (`true`, `false`, `null`) at `position`.
    mutating func readLiteral(_ literal: String.UTF8View) throws(JSONReaderError) {
        for expected in literal {
            guard position < bytes.count, bytes[position] == expected else { throw unexpected() }
            position += 1
        }
    }

    private mutating func skipDigits() {
        while position < bytes.count, isDigit(bytes[position]) { position += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
