import Gzip
import HTTPServer

/// One file the server serves as it is, held in memory with everything its answer needs,
/// made once at load: its entity tag, its media type and, when the encoder may gzip it,
/// its gzipped copy.
public struct WebAsset: Sendable {
    /// The path it is served at, e.g. `/app/map.js`.
    public let path: String
    public let contentType: String
    public let bytes: [UInt8]
    /// Strong (RFC 9110 §8.8.3): the same bytes always give the same tag.
    public let etag: String
    /// `Gzip.compress(bytes)`, made at load for a media type the encoder gzips; nil for
    /// the others (images), which it never compresses.
    let gzipped: [UInt8]?
    /// The `Cache-Control` the answer carries itself, replacing the route's: set for the
    /// files whose bytes never change under their path.
    let cacheControl: String?

    /// What a file that never changes under its path tells caches: a year, and no
    /// revalidation on reload (RFC 8246).
    public static let immutableCacheControl = "public, max-age=31536000, immutable"

    /// - Parameter immutable: the path names a version (a vendored library's folder), so
    ///   the bytes behind it never change: caches may keep them a year without asking.
    public init(path: String, contentType: String, bytes: [UInt8], immutable: Bool = false) throws {
        self.path = path
        self.contentType = contentType
        self.bytes = bytes
        etag = HTTPResponse.strongETag(for: bytes)
        gzipped = HTTPResponse.isCompressible(contentType: contentType) ? try Gzip.compress(bytes) : nil
        cacheControl = immutable ? Self.immutableCacheControl : nil
    }

    /// The answer to a GET, carrying `fields` too: the encoder answers HEAD,
    /// `If-None-Match` (304) and `Accept-Encoding` (with the copy made at load) from it.
    func response(adding fields: [(String, String)]) -> HTTPResponse {
        var fields = [("Content-Type", contentType)] + fields
        if let cacheControl { fields.append(("Cache-Control", cacheControl)) }
        var response = HTTPResponse(status: .ok, headers: HTTPHeaders(fields), body: bytes, etag: etag)
        if let gzipped { response.gzippedBody = { gzipped } }
        return response
    }
}
