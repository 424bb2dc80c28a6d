import Catalog
import Gzip
import HTTPServer

/// The body of `GET /catalog/snapshot` (`CatalogJSON.snapshotBody`), its strong tag and its
/// gzip copy, all made once: the identity bytes at start from the catalog in memory, the
/// gzip copy by the catalog build (`CatalogStore.SnapshotRenderer`).
///
/// A start takes the stored copy when its gzip trailer (the CRC-32 and length of what it
/// decompresses to) is that of the bytes just rendered, and compresses them again
/// otherwise: JSON written differently since the build never reaches a client through
/// an old copy. The tag is the catalog's data version with the same CRC-32 and length,
/// so it changes with the bytes; zlib's CRC-32 over the body costs a fraction of a hash.
///
/// `Sendable`: immutable after `init`.
public final class CatalogSnapshot: Sendable {
    let body: [UInt8]
    let etag: String
    let gzipped: [UInt8]
    /// Whether `gzipped` came from the catalog build, not compressed at this start.
    let usedStoredGzip: Bool

    /// - Parameter storedGzip: the copy the catalog build stored, if any.
    init(json: CatalogJSON, dataVersion: String, storedGzip: [UInt8]?) throws {
        let body = json.snapshotBody()
        let trailer = GzipTrailer(of: body)
        self.body = body
        etag = CatalogEntityTag.value(dataVersion: dataVersion, endpoint: "s") { tag in
            tag.add(Int(trailer.crc32))
            tag.add(body.count)
        }
        if let storedGzip, GzipTrailer(ofMember: storedGzip) == trailer {
            gzipped = storedGzip
            usedStoredGzip = true
        } else {
            gzipped = try Gzip.compress(body)
            usedStoredGzip = false
        }
    }

    /// What a catalog build stores for `catalog` (a `CatalogStore.SnapshotRenderer`), at
    /// zlib's level 5 like every gzip answer: level 9 makes a copy about 6 % smaller in
    /// twice the time, which every catalog build (a first start) would pay.
    public static func gzip(for catalog: PhotoCatalog) throws -> [UInt8] {
        try Gzip.compress(CatalogJSON(catalog: catalog).snapshotBody())
    }
}
