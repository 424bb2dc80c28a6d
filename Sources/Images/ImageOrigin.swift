/// `--image-origin`: a base URL (scheme, host, port and an optional path prefix) that
/// every source URL's path and query are fetched from instead of the source's own host,
/// for a mirror or a test's local origin.
public struct ImageOrigin: Sendable, Hashable {
    /// The base without a trailing `/`.
    public let base: String

    /// Nil unless `text` is an absolute `http://` or `https://` URL with a host and no
    /// query or fragment.
    public init?(_ text: String) {
        guard let schemeEnd = text.firstRange(of: "://"), ["http", "https"].contains(text[..<schemeEnd.lowerBound].lowercased())
        else { return nil }
        let rest = text[schemeEnd.upperBound...]
        let host = rest.prefix { $0 != "/" }
        guard !host.isEmpty, !host.contains("@"), !text.contains("?"), !text.contains("#"),
            !text.contains(where: { $0 == " " || !$0.isASCII })
        else { return nil }
        var base = text
        while base.hasSuffix("/") { base.removeLast() }
        self.base = base
    }

    /// `url` with its scheme and authority replaced by the base: its path and query kept.
    public func rewrite(_ url: String) -> String {
        guard let schemeEnd = url.firstRange(of: "://") else { return base + url }
        let rest = url[schemeEnd.upperBound...]
        guard let pathStart = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return base + "/" }
        let tail = rest[pathStart...]
        return base + (tail.hasPrefix("?") ? "/" + tail : tail)
    }
}
