/// The media type of each kind of file the web folder may hold, by file name. A file of
/// any other kind stops the load (`WebAssetsError.unknownFileType`): nothing is served
/// under a guessed type.
enum WebMediaType {
    static let byExtension: [String: String] = [
        "html": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        // RFC 9239 §6: text/javascript is the one JavaScript media type.
        "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "json": "application/json; charset=utf-8",
        // Source maps are JSON documents (ECMA-426).
        "map": "application/json; charset=utf-8",
        "geojson": "application/geo+json",  // RFC 7946 §12
        "yaml": "application/yaml; charset=utf-8",  // RFC 9512
        "txt": "text/plain; charset=utf-8",
        "svg": "image/svg+xml",
        "png": "image/png",
        "ico": "image/vnd.microsoft.icon",
    ]

    /// Files without an extension (`LICENSE`, `SHA256SUMS`) are plain text.
    static let extensionless = "text/plain; charset=utf-8"

    /// The media type of `fileName`, or nil for a kind of file not in the table.
    static func of(fileName: String) -> String? {
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return extensionless }
        return byExtension[fileName[fileName.index(after: dot)...].lowercased()]
    }
}
