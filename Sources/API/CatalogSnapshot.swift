import Basics
import Catalog
import Gzip
import HTTPServer

/// The body of one generation's `GET /catalog/snapshot` (`CatalogJSON.snapshotBody`), its
/// strong tag, its gzip copy, and where each location's line lies in it (the lines of
/// `GET /catalog/changes`), all made once, when the generation is built.
///
/// The gzip copy is made of blocks deflated on their own (`GzipBlock`), each a run of
/// whole lines that ends where the next line's `locationID` is a block start
/// (`startsBlock`: about one location in 64, chosen by the ID alone, so a line that
/// changes, comes or goes leaves every other block as it was). A block holding the same
/// bytes as one of an earlier snapshot (the previous generation's, or the catalog
/// build's, stored in `catalog.sqlite`) is that block again, known by its gzip trailer
/// (CRC-32 and length), so a generation compresses only the blocks its corrections
/// touched, and a start compresses nothing. The tag is the generation's data version
/// with the CRC-32 and length of the whole body, so it changes with the bytes.
///
/// `Sendable`: immutable after `init`.
public final class CatalogSnapshot: Sendable {
    let body: [UInt8]
    let etag: String
    let gzipped: [UInt8]
    /// The blocks of `gzipped`, in order, for the next generation to reuse.
    let blocks: [GzipBlock]
    /// How many of `blocks` were compressed for this snapshot, not reused.
    let compressedBlocks: Int
    /// Where each location's line starts in `body`, in `PhotoCatalog.locations` order,
    /// then the body's length.
    private let lineStarts: [Int]

    /// - Parameter reusable: blocks of earlier snapshots.
    init(json: CatalogJSON, catalog: PhotoCatalog, reusing reusable: [GzipBlock]) throws {
        let body = json.snapshotBody()
        var lineStarts = [0]
        lineStarts.reserveCapacity(catalog.locations.count + 1)
        // A JSON string escapes its newlines: every newline byte ends a line.
        for (offset, byte) in body.enumerated() where byte == UInt8(ascii: "\n") { lineStarts.append(offset + 1) }
        precondition(lineStarts.count == catalog.locations.count + 1, "one snapshot line per location")
        let known = Dictionary(reusable.map { ($0.trailer, $0) }, uniquingKeysWith: { first, _ in first })
        var blocks: [GzipBlock] = []
        var compressedBlocks = 0
        try body.withUnsafeBufferPointer { buffer in
            var start = 0
            for location in catalog.locations.indices {
                let next = location + 1
                guard next == catalog.locations.count || Self.startsBlock(catalog.locations[next].locationID) else { continue }
                let bytes = UnsafeBufferPointer(rebasing: buffer[start..<lineStarts[next]])
                if let block = known[GzipTrailer(of: bytes)] {
                    blocks.append(block)
                } else {
                    blocks.append(try GzipBlock(compressing: bytes))
                    compressedBlocks += 1
                }
                start = lineStarts[next]
            }
        }
        self.body = body
        self.lineStarts = lineStarts
        self.blocks = blocks
        self.compressedBlocks = compressedBlocks
        gzipped = GzipBlock.member(of: blocks)
        // The member's trailer is the whole body's, combined from the blocks'.
        let trailer = GzipTrailer(ofMember: gzipped)!
        etag = CatalogEntityTag.value(dataVersion: catalog.dataVersion, endpoint: "s") { tag in
            tag.add(Int(trailer.crc32))
            tag.add(body.count)
        }
    }

    /// The line of a location (an index in `PhotoCatalog.locations`), its newline included.
    func line(_ location: Int) -> ArraySlice<UInt8> {
        body[lineStarts[location]..<lineStarts[location + 1]]
    }

    /// Whether a block starts at the line of `locationID`: its stable digest's low six
    /// bits are zero, for one location in 64 (blocks of about 300 KB).
    static func startsBlock(_ locationID: String) -> Bool {
        var digest = StableDigest()
        digest.mix(locationID.utf8)
        return digest.value & 63 == 0
    }

    /// What a catalog build stores for `catalog` (a `CatalogStore.SnapshotRenderer`): the
    /// blocks of the shipped catalog's snapshot, at zlib's level 5 like every gzip answer
    /// (level 9 makes a copy about 6 % smaller in twice the time, which every catalog
    /// build, a first start, would pay).
    public static func blocks(for catalog: PhotoCatalog) throws -> [GzipBlock] {
        try CatalogSnapshot(json: CatalogJSON(catalog: catalog), catalog: catalog, reusing: []).blocks
    }
}
