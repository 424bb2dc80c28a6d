import Catalog
import HTTPServer

/// The JSON of catalog responses (CONTRACT.md "Catalog"), mostly precomputed at start:
/// every PhotoSummary and every location's constant members are encoded once, so a
/// response is assembled by concatenation.
///
/// `Sendable`: immutable after `init`.
public final class CatalogJSON: PhotoSummaryProvider, Sendable {
    private let catalog: PhotoCatalog
    /// Every photo's PhotoSummary object in `catalog.photos` order, one allocation
    /// instead of one array per photo; each location's run of photos is stored
    /// comma-joined, so its first photos go into a body as one slice.
    private let summaries: CatalogJSONArena
    /// Where each photo's thumbnail URL, as a JSON string, lies inside its summary
    /// (the value of its `"thumbnailURL"` member), relative to the summary's start.
    private let thumbnailStarts: [Int32]
    private let thumbnailEnds: [Int32]
    /// Each location's object up to and including `"photoCount":`.
    private let locationHeads: CatalogJSONArena
    /// The whole `GET /boroughs` body.
    let boroughsBody: [UInt8]

    public init(catalog: PhotoCatalog) {
        self.catalog = catalog
        let photos = catalog.photos
        var thumbnailStarts: [Int32] = []
        var thumbnailEnds: [Int32] = []
        thumbnailStarts.reserveCapacity(photos.count)
        thumbnailEnds.reserveCapacity(photos.count)
        summaries = CatalogJSONArena(
            count: photos.count, estimatedSize: 384,
            joined: { photos[$0].locationIndex == photos[$0 - 1].locationIndex }
        ) { index, writer in
            let thumbnail = Self.writeSummary(of: photos[index], into: &writer)
            thumbnailStarts.append(Int32(thumbnail.lowerBound))
            thumbnailEnds.append(Int32(thumbnail.upperBound))
        }
        self.thumbnailStarts = thumbnailStarts
        self.thumbnailEnds = thumbnailEnds
        let locations = catalog.locations
        locationHeads = CatalogJSONArena(count: locations.count, estimatedSize: 192) { index, writer in
            writer.beginObject()
            Self.writeLocationMembers(locations[index], into: &writer)
            writer.key("photoCount")
        }
        boroughsBody = Self.encodeBoroughs(catalog.boroughSummaries)
    }

    public func photoSummaryJSON(photoID: String) -> [UInt8]? {
        catalog.photoIndex(photoID: photoID).map { summaries.fragment($0) }
    }

    /// `{"latitude":…,"longitude":…,"locations":[Location + distanceMeters + photos]}`.
    func nearbyBody(_ query: NearbyQuery, photosPerLocation: Int, matches: [NearbyMatch]) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(64 + matches.count * (240 + photosPerLocation * 340))
        body.append(#"{"latitude":"#)
        CatalogJSONNumber.append(query.latitude, to: &body)
        body.append(#","longitude":"#)
        CatalogJSONNumber.append(query.longitude, to: &body)
        body.append(#","locations":["#)
        let filter = query.filter
        for match in matches {
            locationHeads.prefetch(match.location)
            if let photo = catalog.photoRange(location: match.location).first { summaries.prefetch(photo) }
        }
        for (offset, match) in matches.enumerated() {
            if offset > 0 { body.append(UInt8(ascii: ",")) }
            locationHeads.append(match.location, to: &body)
            CatalogJSONNumber.append(match.photoCount, to: &body)
            body.append(#","distanceMeters":"#)
            CatalogJSONNumber.appendCentimetres(match.distance, to: &body)
            body.append(#","photos":["#)
            let photos = catalog.photoRange(location: match.location)
            if filter.filtersYears {
                var written = 0
                for photo in photos {
                    if written == photosPerLocation { break }
                    guard catalog.photo(photo, matches: filter) else { continue }
                    if written > 0 { body.append(UInt8(ascii: ",")) }
                    summaries.append(photo, to: &body)
                    written += 1
                }
            } else {
                summaries.append(run: photos.prefix(photosPerLocation), to: &body)
            }
            body.append("]}")
        }
        body.append("]}")
        return body
    }

    /// `{"locations":[Location + thumbnailURL],"total":…,"truncated":…}`.
    func regionBody(_ result: RegionResult) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(40 + result.matches.count * 260)
        body.append(#"{"locations":["#)
        for (offset, match) in result.matches.enumerated() {
            if offset > 0 { body.append(UInt8(ascii: ",")) }
            locationHeads.append(match.location, to: &body)
            CatalogJSONNumber.append(match.photoCount, to: &body)
            body.append(#","thumbnailURL":"#)
            let first = match.firstPhoto
            summaries.append(first, part: Int(thumbnailStarts[first])..<Int(thumbnailEnds[first]), to: &body)
            body.append(UInt8(ascii: "}"))
        }
        body.append(#"],"total":"#)
        CatalogJSONNumber.append(result.total, to: &body)
        body.append(#","truncated":"#)
        body.append(result.truncated ? "true" : "false")
        body.append(UInt8(ascii: "}"))
        return body
    }

    /// The full photo: PhotoSummary plus location, labels, folder, text, years and nyplURL.
    func photoBody(_ index: Int) -> [UInt8] {
        let photo = catalog.photos[index]
        let location = catalog.locations[photo.locationIndex]
        var writer = JSONWriter(reservingCapacity: 1024)
        writer.beginObject()
        writer.field("photoID", photo.photoID)
        writer.field("thumbnailURL", photo.thumbnailURL)
        Self.writeSummaryTail(of: photo, into: &writer)
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

    /// The PhotoSummary object; returns where its thumbnail URL (a JSON string) lies in `writer.bytes`.
    /// The photo is passed, not copied out of the array: a copy would retain all its strings.
    private static func writeSummary(of photo: borrowing CatalogPhoto, into writer: inout JSONWriter) -> Range<Int> {
        writer.beginObject()
        writer.field("photoID", photo.photoID)
        writer.key("thumbnailURL")
        let start = writer.bytes.count
        writer.string(photo.thumbnailURL)
        let thumbnail = start..<writer.bytes.count
        writeSummaryTail(of: photo, into: &writer)
        writer.endObject()
        return thumbnail
    }

    /// The PhotoSummary members after `photoID` and `thumbnailURL`, in contract order.
    private static func writeSummaryTail(of photo: borrowing CatalogPhoto, into writer: inout JSONWriter) {
        writer.field("photoURL", photo.photoURL)
        writer.field("width", photo.width)
        writer.field("height", photo.height)
        writer.field("title", photo.title)
        writer.field("date", photo.date)
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
}
