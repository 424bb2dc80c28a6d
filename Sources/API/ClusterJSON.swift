import Catalog
import Explore
import HTTPServer

/// The JSON of `GET /clusters`. The object of every whole grid cell — what a query
/// without filters reads for each cell inside its box — is encoded once at start,
/// so such a response is a sort and a copy per cluster.
///
/// `Sendable`: immutable after `init`.
final class ClusterJSON: Sendable {
    private let catalog: PhotoCatalog
    /// The objects of whole cells: one per location alone in its cell (the same at
    /// every zoom where it is alone), and one per cell of several locations.
    private let fragments: CatalogJSONArena
    /// For each zoom, the fragment of each of its grid's cells.
    private let cellFragments: [[Int32]]

    init(catalog: PhotoCatalog, index: ClusterIndex) {
        self.catalog = catalog
        var encoded: [Cluster] = []
        var soleLocationFragments = [Int32](repeating: -1, count: catalog.locations.count)
        cellFragments = index.grids.map { grid in
            var fragments = [Int32](repeating: -1, count: grid.cells.count)
            // In the order responses list them: a big one then copies neighbouring fragments.
            for cell in grid.ranked.map(Int.init) {
                let cluster = grid.cells[cell]
                if cluster.locationCount == 1, soleLocationFragments[cluster.representative] >= 0 {
                    fragments[cell] = soleLocationFragments[cluster.representative]
                    continue
                }
                fragments[cell] = Int32(encoded.count)
                if cluster.locationCount == 1 { soleLocationFragments[cluster.representative] = Int32(encoded.count) }
                encoded.append(cluster)
            }
            return fragments
        }
        fragments = CatalogJSONArena(
            count: encoded.count, estimatedSize: 280,
            append: { [catalog] fragment, bytes in Self.append(encoded[fragment], catalog: catalog, to: &bytes) })
    }

    /// `{"zoom":…,"clusters":[Cluster],"total":…,"truncated":…}`.
    func body(_ result: ClusterResult) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(64 + result.matches.count * 280)
        body.append(#"{"zoom":"#)
        CatalogJSONNumber.append(result.zoom, to: &body)
        body.append(#","clusters":["#)
        let cells = cellFragments[result.zoom]
        for (offset, match) in result.matches.enumerated() {
            if offset > 0 { body.append(UInt8(ascii: ",")) }
            if match.isWholeCell {
                fragments.append(Int(cells[match.cell]), to: &body)
            } else {
                Self.append(result.cluster(match), catalog: catalog, to: &body)
            }
        }
        CatalogJSON.closeTruncatedList(total: result.total, truncated: result.truncated, to: &body)
        return body
    }

    /// One cluster object, members in the order of the API document; the same bytes
    /// whether precomputed or written for a query.
    private static func append(_ cluster: Cluster, catalog: PhotoCatalog, to body: inout [UInt8]) {
        body.append(#"{"latitude":"#)
        let latitudeStart = body.count
        CatalogJSONNumber.append(cluster.latitude, to: &body)
        let latitude = latitudeStart..<body.count
        body.append(#","longitude":"#)
        let longitudeStart = body.count
        CatalogJSONNumber.append(cluster.longitude, to: &body)
        let longitude = longitudeStart..<body.count
        body.append(#","locationCount":"#)
        CatalogJSONNumber.append(cluster.locationCount, to: &body)
        body.append(#","photoCount":"#)
        CatalogJSONNumber.append(cluster.photoCount, to: &body)
        body.append(#","bbox":{"south":"#)
        if cluster.locationCount == 1 {
            // The box is the point: its numbers are the ones just written, copied.
            Self.appendAgain(latitude, in: &body)
            body.append(#","west":"#)
            Self.appendAgain(longitude, in: &body)
            body.append(#","north":"#)
            Self.appendAgain(latitude, in: &body)
            body.append(#","east":"#)
            Self.appendAgain(longitude, in: &body)
            body.append(#"},"locationID":"#)
            JSONString.append(catalog.locations[cluster.representative].locationID, to: &body)
        } else {
            CatalogJSONNumber.append(cluster.south, to: &body)
            body.append(#","west":"#)
            CatalogJSONNumber.append(cluster.west, to: &body)
            body.append(#","north":"#)
            CatalogJSONNumber.append(cluster.north, to: &body)
            body.append(#","east":"#)
            CatalogJSONNumber.append(cluster.east, to: &body)
            body.append(#"},"locationID":null"#)
        }
        body.append(#","thumbnailURL":"#)
        JSONString.append(catalog.photos[cluster.thumbnailPhoto].thumbnailURL, to: &body)
        body.append(UInt8(ascii: "}"))
    }

    /// Appends bytes `range` of `body` again, byte by byte: appending a slice of the
    /// array itself would keep its storage shared and copy all of it.
    private static func appendAgain(_ range: Range<Int>, in body: inout [UInt8]) {
        for offset in range { body.append(body[offset]) }
    }
}
