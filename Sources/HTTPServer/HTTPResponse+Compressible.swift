extension HTTPResponse {
    /// Whether the encoder may send a body of this media type gzipped: JSON, YAML and
    /// text. For a handler that keeps a gzipped copy made (`gzippedBody`) only where the
    /// encoder would use it.
    public static func isCompressible(contentType: String) -> Bool {
        if contentType == jsonContentType { return true }
        let bytes = Array(contentType.utf8)
        return contains(bytes, "json") || contains(bytes, "yaml") || bytes.starts(with: "text/".utf8)
    }

    /// A byte search: `String.contains(String)` goes through grapheme-aware matching,
    /// which showed up in profiles for what is an ASCII media type.
    private static func contains(_ haystack: [UInt8], _ needle: StaticString) -> Bool {
        let needle = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        guard haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count)
        where haystack[start] == needle[0] && haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return true
        }
        return false
    }
}
