import Catalog

/// The JSON of catalog responses (CONTRACT.md "Catalog"), mostly precomputed at start:
/// every PhotoSummary and every location's constant members are encoded once, so a
/// response is assembled by concatenation.
///
/// `Sendable`: immutable after `init`.
public final class CatalogJSON: PhotoSummaryProvider, Sendable {
    private let catalog: PhotoCatalog
    /// PhotoSummary object of each photo, by index in `catalog.photos`.
    private let summaries: [[UInt8]]
    /// Each location's object up to and including `"photoCount":`.
    private let locationHeads: [[UInt8]]
    /// Each photo's thumbnail URL as a JSON string.
    private let thumbnailURLs: [[UInt8]]
    /// The whole `GET /boroughs` body.
    let boroughsBody: [UInt8]

    public init(catalog: PhotoCatalog) {
        self.catalog = catalog
        summaries = catalog.photos.map { photo in
            var writer = JSONWriter(reservingCapacity: 320)
            Self.writeSummaryMembers(of: photo, wrapped: true, into: &writer)
            return writer.bytes
        }
        locationHeads = catalog.locations.map { location in
            var writer = JSONWriter(reservingCapacity: 192)
            writer.beginObject()
            Self.writeLocationMembers(location, into: &writer)
            writer.endObject()
            var bytes = writer.bytes
            bytes.removeLast()
            bytes.append(contentsOf: #","photoCount":"#.utf8)
            return bytes
        }
        thumbnailURLs = catalog.photos.map { photo in
            var writer = JSONWriter(reservingCapacity: 64)
            writer.string(photo.thumbnailURL)
            return writer.bytes
        }
        boroughsBody = Self.encodeBoroughs(catalog.boroughSummaries)
    }

    public func photoSummaryJSON(photoID: String) -> [UInt8]? {
        catalog.photoIndex(photoID: photoID).map { summaries[$0] }
    }

    /// `{"latitude":…,"longitude":…,"locations":[Location + distanceMeters + photos]}`.
    func nearbyBody(_ query: NearbyQuery, photosPerLocation: Int, matches: [NearbyMatch]) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(64 + matches.count * (200 + photosPerLocation * 300))
        body.append(contentsOf: #"{"latitude":"#.utf8)
        append(number: query.latitude, to: &body)
        body.append(contentsOf: #","longitude":"#.utf8)
        append(number: query.longitude, to: &body)
        body.append(contentsOf: #","locations":["#.utf8)
        for (offset, match) in matches.enumerated() {
            if offset > 0 { body.append(UInt8(ascii: ",")) }
            body.append(contentsOf: locationHeads[match.location])
            body.append(contentsOf: String(match.photoCount).utf8)
            body.append(contentsOf: #","distanceMeters":"#.utf8)
            // Centimetres are plenty for a distance and keep the numbers short.
            append(number: (match.distance * 100).rounded() / 100, to: &body)
            body.append(contentsOf: #","photos":["#.utf8)
            var written = 0
            for photo in catalog.photoRange(location: match.location) {
                if written == photosPerLocation { break }
                if query.filter.filtersYears, !query.filter.matches(years: catalog.photos[photo].yearNumbers) { continue }
                if written > 0 { body.append(UInt8(ascii: ",")) }
                body.append(contentsOf: summaries[photo])
                written += 1
            }
            body.append(contentsOf: "]}".utf8)
        }
        body.append(contentsOf: "]}".utf8)
        return body
    }

    /// `{"locations":[Location + thumbnailURL],"total":…,"truncated":…}`.
    func regionBody(_ result: RegionResult) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(40 + result.matches.count * 260)
        body.append(contentsOf: #"{"locations":["#.utf8)
        for (offset, match) in result.matches.enumerated() {
            if offset > 0 { body.append(UInt8(ascii: ",")) }
            body.append(contentsOf: locationHeads[match.location])
            body.append(contentsOf: String(match.photoCount).utf8)
            body.append(contentsOf: #","thumbnailURL":"#.utf8)
            body.append(contentsOf: thumbnailURLs[match.firstPhoto])
            body.append(UInt8(ascii: "}"))
        }
        body.append(contentsOf: #"],"total":"#.utf8)
        body.append(contentsOf: String(result.total).utf8)
        body.append(contentsOf: #","truncated":"#.utf8)
        body.append(contentsOf: (result.truncated ? "true" : "false").utf8)
        body.append(UInt8(ascii: "}"))
        return body
    }

    /// The full photo: PhotoSummary plus location, labels, folder, text, years and nyplURL.
    func photoBody(_ index: Int) -> [UInt8] {
        let photo = catalog.photos[index]
        let location = catalog.locations[photo.locationIndex]
        var writer = JSONWriter(reservingCapacity: 1024)
        writer.beginObject()
        Self.writeSummaryMembers(of: photo, wrapped: false, into: &writer)
        writer.field("locationID", location.locationID)
        writer.field("latitude", location.latitude)
        writer.field("longitude", location.longitude)
        writer.field("borough", location.borough?.rawValue)
        writer.field("intersection", photo.intersection)
        writer.field("folder", photo.folder)
        writer.field("text", photo.text)
        writer.key("years")
        writer.beginArray()
        for year in photo.years { writer.string(year) }
        writer.endArray()
        writer.field("nyplURL", photo.nyplURL)
        writer.endObject()
        return writer.bytes
    }

    private static func writeSummaryMembers(of photo: CatalogPhoto, wrapped: Bool, into writer: inout JSONWriter) {
        if wrapped { writer.beginObject() }
        writer.field("photoID", photo.photoID)
        writer.field("thumbnailURL", photo.thumbnailURL)
        writer.field("photoURL", photo.photoURL)
        writer.field("width", photo.width)
        writer.field("height", photo.height)
        writer.field("title", photo.title)
        writer.field("date", photo.date)
        if wrapped { writer.endObject() }
    }

    private static func writeLocationMembers(_ location: CatalogLocation, into writer: inout JSONWriter) {
        writer.field("locationID", location.locationID)
        writer.field("latitude", location.latitude)
        writer.field("longitude", location.longitude)
        writer.field("borough", location.borough?.rawValue)
        writer.field("intersection", location.intersection)
    }

    private static func encodeBoroughs(_ summaries: [BoroughSummary]) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginArray()
        for summary in summaries {
            writer.beginObject()
            writer.field("name", summary.borough.rawValue)
            writer.field("locationCount", summary.locationCount)
            writer.field("photoCount", summary.photoCount)
            writer.key("bbox")
            if let box = summary.bbox {
                writer.beginObject()
                writer.field("south", box.south)
                writer.field("west", box.west)
                writer.field("north", box.north)
                writer.field("east", box.east)
                writer.endObject()
            } else {
                writer.null()
            }
            writer.endObject()
        }
        writer.endArray()
        return writer.bytes
    }

    /// A JSON number, formatted exactly as `JSONWriter.number` does.
    private func append(number: Double, to body: inout [UInt8]) {
        var writer = JSONWriter(reservingCapacity: 24)
        writer.number(number)
        body.append(contentsOf: writer.bytes)
    }
}
