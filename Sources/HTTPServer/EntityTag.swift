import Basics
import Crypto

/// Entity tags (RFC 9110 §8.8.3) and `If-None-Match` evaluation (§13.1.2).
enum EntityTag {
    /// The tag of the gzip representation: a distinct strong tag, because the bytes differ
    /// (RFC 9110 §8.8.3.3), made by inserting `-gzip` before the closing quote.
    static func gzipVariant(of tag: String) -> String {
        guard tag.hasSuffix("\"") else { return tag + "-gzip" }
        return String(tag.dropLast()) + "-gzip\""
    }

    /// Whether `If-None-Match` matches any of `tags`, by weak comparison: `W/` is ignored
    /// and the opaque tags compared (RFC 9110 §8.8.3.2). `*` matches any current representation.
    static func ifNoneMatch(_ headers: HTTPHeaders, matchesAnyOf tags: [String]) -> Bool {
        let opaque = tags.map(stripWeakPrefix)
        for value in headers.values("If-None-Match") {
            for element in entityTags(in: value) {
                if element == "*" { return true }
                if opaque.contains(stripWeakPrefix(element)) { return true }
            }
        }
        return false
    }

    /// The elements of an `If-None-Match` value: `*` or entity tags, whose quoted part may
    /// itself hold commas (`etagc` allows them), so the list is split outside quotes only.
    static func entityTags(in value: String) -> [Substring] {
        var elements: [Substring] = []
        var start = value.startIndex
        var insideQuotes = false
        for index in value.indices {
            switch value[index] {
            case "\"":
                insideQuotes.toggle()
            case "," where !insideQuotes:
                elements.append(value[start..<index])
                start = value.index(after: index)
            default:
                break
            }
        }
        elements.append(value[start...])
        return elements.map { $0.trimmingSpacesAndTabs() }.filter { !$0.isEmpty }
    }

    private static func stripWeakPrefix(_ tag: some StringProtocol) -> Substring {
        let tag = Substring(tag)
        return tag.hasPrefix("W/") ? tag.dropFirst(2) : tag
    }
}

extension HTTPResponse {
    /// A strong entity tag for `body`: the first 16 bytes of its SHA-256, hex, quoted.
    public static func strongETag(for body: [UInt8]) -> String {
        let digest = SHA256.hash(data: body)
        var tag: [UInt8] = [UInt8(ascii: "\"")]
        Hex.append(bytes: digest.prefix(16), to: &tag)
        tag.append(UInt8(ascii: "\""))
        return String(decoding: tag, as: UTF8.self)
    }
}
