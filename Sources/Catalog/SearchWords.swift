import Foundation

/// The words of searchable text, as `GET /search` defines them (openapi.yaml): the text
/// is NFC-normalised, a word is a maximal run of Unicode letters (L*) and decimal digits
/// (Nd), a combining mark (M*) belongs to the word it follows; a word is matched by its
/// *key*: decomposed canonically (NFD), its marks dropped, then case-folded. Letters
/// without a decomposition (`ø`, `ł`, `đ`) stay themselves.
///
/// The catalog build indexes keys and the search engine looks keys up, so both sides
/// use this one definition; the full-text tokenizer then only ever sees keys joined by
/// spaces.
public enum SearchWords {
    /// The words of `text`, in order, as they appear after NFC.
    public static func words(_ text: String) -> [Substring] {
        let normalized = text.utf8.allSatisfy { $0 < 0x80 } ? text : text.precomposedStringWithCanonicalMapping
        var words: [Substring] = []
        let scalars = normalized.unicodeScalars
        var start: String.UnicodeScalarView.Index?
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            switch kind(scalar) {
            case .wordCharacter:
                if start == nil { start = index }
            case .mark:
                break  // Part of the word it follows; outside a word, a separator.
            case .separator:
                if let first = start {
                    words.append(Substring(scalars[first..<index]))
                    start = nil
                }
            }
            index = scalars.index(after: index)
        }
        if let first = start { words.append(Substring(scalars[first..<scalars.endIndex])) }
        return words
    }

    /// The key a word is matched by: NFD, marks dropped, case-folded.
    public static func key(_ word: some StringProtocol) -> String {
        if word.utf8.allSatisfy({ $0 < 0x80 }) { return word.lowercased() }
        var key = String.UnicodeScalarView()
        for scalar in word.unicodeScalars { appendKey(of: scalar, to: &key) }
        return String(key)
    }

    /// The keys of every word of `text`, joined by single spaces: what the full-text index
    /// stores. One pass over the text's scalars, writing UTF-8 bytes as it goes: ASCII
    /// byte by byte, other word characters through `appendKey`.
    public static func indexedText(_ text: String?) -> String {
        guard let text else { return "" }
        let isASCII = text.utf8.allSatisfy { $0 < 0x80 }
        let normalized = isASCII ? text : text.precomposedStringWithCanonicalMapping
        var bytes: [UInt8] = []
        bytes.reserveCapacity(normalized.utf8.count)
        var inWord = false
        for scalar in normalized.unicodeScalars {
            switch kind(scalar) {
            case .wordCharacter:
                if !inWord, !bytes.isEmpty { bytes.append(UInt8(ascii: " ")) }
                inWord = true
                if scalar.isASCII {
                    let byte = UInt8(scalar.value)
                    bytes.append((0x41...0x5A).contains(byte) ? byte | 0x20 : byte)
                } else {
                    var key = String.UnicodeScalarView()
                    appendKey(of: scalar, to: &key)
                    bytes.append(contentsOf: String(key).utf8)
                }
            case .mark:
                break  // Inside a word, dropped from its key; outside, a separator.
            case .separator:
                inWord = false
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends a word character's part of its word's key. NFD, dropping marks and case
    /// folding all work scalar by scalar (NFD only reorders marks, which are dropped), so
    /// a key is its word's scalars' parts, concatenated.
    private static func appendKey(of scalar: Unicode.Scalar, to key: inout String.UnicodeScalarView) {
        if scalar.isASCII {
            let value = scalar.value
            key.append((0x41...0x5A).contains(value) ? Unicode.Scalar(UInt8(value) | 0x20) : scalar)
            return
        }
        for part in String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars where kind(part) != .mark {
            CaseFolding.append(part, to: &key)
        }
    }

    private enum Kind {
        case wordCharacter, mark, separator
    }

    private static func kind(_ scalar: Unicode.Scalar) -> Kind {
        if scalar.isASCII {
            let value = scalar.value
            let isAlphanumeric =
                (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
            return isAlphanumeric ? .wordCharacter : .separator
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber:
            return .wordCharacter
        case .nonspacingMark, .spacingMark, .enclosingMark:
            return .mark
        default:
            return .separator
        }
    }
}
