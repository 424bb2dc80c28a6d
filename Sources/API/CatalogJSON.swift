import Catalog
import HTTPServer

/// The JSON of catalog responses (the `catalog` operations of openapi.yaml), mostly precomputed at start:
/// every PhotoSummary and every location's constant members are encoded once, so a
/// response is assembled by concatenation.
///
/// `Sendable`: immutable after `init`.
public final class CatalogJSON: PlacedPhotoProvider, Sendable {
    private let catalog: PhotoCatalog
    /// Every location's constant JSON followed by its photos' PhotoSummary objects, in
    /// location order: the location's object up to and including `"photoCount":`,
    /// then its summaries, comma-joined. So a `/nearby` location is one head and one
    /// slice of summaries lying next to each other in memory, found by one lookup.
    private let fragments: CatalogJSONArena
    /// The fragment of each location's head; its summaries are the fragments after it.
    private let locationFragments: [Int32]
    /// The fragment of each photo's summary, in `catalog.photos` order.
    private let photoFragments: [Int32]
    /// Where `,"intersection":` starts in each location's head: what lies before it, after
    /// the opening brace, is the location's part of a full photo (`photoBody`).
    private let intersectionStarts: [Int32]
    /// Each photo's members that only the full photo has, `{"intersection":…,"nyplURL":…}`
    /// (its label, folder, text, years and NYPL URL), in `catalog.photos` order.
    private let photoTails: CatalogJSONArena
    /// Where each photo's thumbnail URL, as a JSON string, lies inside its summary
    /// (the value of its `"thumbnailURL"` member), relative to the summary's start.
    private let thumbnailStarts: [Int32]
    private let thumbnailEnds: [Int32]
    /// Each location's whole `/region` entry when no photo filter (years, topic) applies,
    /// `{…,"photoCount":…,"thumbnailURL":…}` with all its photos counted and its first
    /// photo's thumbnail, in location order. Location IDs start with the latitude, so
    /// the entries of one box lie close together, not spread among the photos' summaries.
    private let regionEntries: CatalogJSONArena
    /// The whole `GET /boroughs` body.
    let boroughsBody: [UInt8]

    public init(catalog: PhotoCatalog) {
        self.catalog = catalog
        let locations = catalog.locations
        let photos = catalog.photos
        /// Each fragment: a location's head, or a photo's summary.
        enum Fragment {
            case head(location: Int)
            case summary(photo: Int)
        }
        var order: [Fragment] = []
        order.reserveCapacity(locations.count + photos.count)
        var locationFragments: [Int32] = []
        var photoFragments = [Int32](repeating: 0, count: photos.count)
        for location in locations.indices {
            locationFragments.append(Int32(order.count))
            order.append(.head(location: location))
            for photo in catalog.photoRange(location: location) {
                photoFragments[photo] = Int32(order.count)
                order.append(.summary(photo: photo))
            }
        }
        var thumbnailStarts = [Int32](repeating: 0, count: photos.count)
        var thumbnailEnds = [Int32](repeating: 0, count: photos.count)
        var intersectionStarts = [Int32](repeating: 0, count: locations.count)
        let fragments = CatalogJSONArena(
            count: order.count, estimatedSize: 320,
            joined: { index in
                if case .summary = order[index], case .summary = order[index - 1] { return true }
                return false
            }
        ) { index, writer in
            switch order[index] {
            case .head(let location):
                writer.beginObject()
                Self.writeLocationPlace(locations[location], into: &writer)
                intersectionStarts[location] = Int32(writer.bytes.count)
                writer.field("intersection", locations[location].intersection)
                writer.key("photoCount")
            case .summary(let photo):
                let thumbnail = Self.writeSummary(of: photos[photo], into: &writer)
                thumbnailStarts[photo] = Int32(thumbnail.lowerBound)
                thumbnailEnds[photo] = Int32(thumbnail.upperBound)
            }
        }
        self.fragments = fragments
        self.locationFragments = locationFragments
        self.photoFragments = photoFragments
        self.thumbnailStarts = thumbnailStarts
        self.thumbnailEnds = thumbnailEnds
        self.intersectionStarts = intersectionStarts
        photoTails = CatalogJSONArena(count: photos.count, estimatedSize: 400) { photo, writer in
            Self.writePhotoTail(of: photos[photo], into: &writer)
        }
        boroughsBody = Self.encodeBoroughs(catalog.boroughSummaries)
        regionEntries = CatalogJSONArena(count: locations.count, estimatedSize: 300) { location, bytes in
            let photos = catalog.photoRange(location: location)
            guard let first = photos.first else { return }
            Self.appendRegionEntry(
                head: Int(locationFragments[location]), photoCount: photos.count, summary: Int(photoFragments[first]),
                thumbnail: Int(thumbnailStarts[first])..<Int(thumbnailEnds[first]), from: fragments, to: &bytes)
        }
    }

    public func placedPhotoJSON(photoID: String) -> [UInt8]? {
        guard let photo = catalog.photoIndex(photoID: photoID) else { return nil }
        var body: [UInt8] = []
        body.reserveCapacity(Self.placedPhotoBound)
        appendOpenPlacedPhoto(photo, to: &body)
        body.append(UInt8(ascii: "}"))
        return body
    }

    /// Straight from the arena, without a copy in between.
    public func appendOpenPlacedPhoto(photoID: String, to body: inout [UInt8]) -> Bool {
        guard let photo = catalog.photoIndex(photoID: photoID) else { return false }
        appendOpenPlacedPhoto(photo, to: &body)
        return true
    }

    /// Room for most PlacedPhotos: a summary of about 300 bytes and a place of about 150.
    private static let placedPhotoBound = 640

    /// A PlacedPhoto without its closing brace, so members may follow: the photo's
    /// precomputed summary, reopened, then the members of its location's precomputed head
    /// (`locationID` to `intersection`). The one writer of PlacedPhotos: search results,
    /// favorites, recents and walk entries all come from here.
    func appendOpenPlacedPhoto(_ photo: Int, to body: inout [UInt8]) {
        let photoCountKey: StaticString = #","photoCount":"#
        fragments.append(Int(photoFragments[photo]), to: &body)
        body[body.count - 1] = UInt8(ascii: ",")  // The summary's closing brace.
        let head = Int(locationFragments[catalog.photos[photo].locationIndex])
        fragments.append(head, part: 1..<(fragments.size(head) - photoCountKey.utf8CodeUnitCount), to: &body)
    }

    /// `{"latitude":…,"longitude":…,"locations":[Location + distanceMeters (+ bearing) + photos]}`,
    /// written into one allocation of its bound (`nearbyEnvelopeBound`, and per match
    /// `nearbyMatchBound` and its fragments). With a cone, each location also has its
    /// `bearing` from the point.
    func nearbyBody(_ query: NearbyQuery, photosPerLocation: Int, matches: [NearbyMatch]) -> [UInt8] {
        let filter = query.filter
        // Where the fragments lie is itself a cache miss per match, and the sizes below
        // wait on it: all of them are requested at once, not one after another.
        for match in matches { fragments.prefetchBounds(of: Int(locationFragments[match.location])) }
        var capacity = Self.nearbyEnvelopeBound
        for match in matches {
            let head = Int(locationFragments[match.location])
            capacity += Self.nearbyMatchBound + fragments.size(head)
            // A photo filter (years, topic) may pick any of the location's photos: all of them bound the pick.
            let photos = filter.filtersPhotos ? catalog.photoRange(location: match.location).count : min(match.photoCount, photosPerLocation)
            if photos > 0 { capacity += fragments.size(run: (head + 1)..<(head + 1 + photos)) }
            // The head and, without a photo filter, the photos that follow it are copied next.
            fragments.prefetch(run: head..<(head + 1 + (filter.filtersPhotos ? 0 : photos)))
        }
        return CatalogBodyWriter.body(capacity: capacity) { body in
            body.append(#"{"latitude":"#)
            CatalogJSONNumber.append(query.latitude, to: &body)
            body.append(#","longitude":"#)
            CatalogJSONNumber.append(query.longitude, to: &body)
            body.append(#","locations":["#)
            for (offset, match) in matches.enumerated() {
                if offset > 0 { body.append(UInt8(ascii: ",")) }
                let head = Int(locationFragments[match.location])
                fragments.append(head, to: &body)
                CatalogJSONNumber.append(match.photoCount, to: &body)
                body.append(#","distanceMeters":"#)
                CatalogJSONNumber.appendCentimetres(match.distance, to: &body)
                if let bearing = match.bearing {
                    body.append(#","bearing":"#)
                    CatalogJSONNumber.appendBearing(bearing, to: &body)
                }
                body.append(#","photos":["#)
                if filter.filtersPhotos {
                    appendMatchingPhotos(of: match.location, filter: filter, limit: photosPerLocation, to: &body)
                } else {
                    // Without a photo filter every photo counts: the first ones follow the head.
                    fragments.append(run: (head + 1)..<(head + 1 + min(match.photoCount, photosPerLocation)), to: &body)
                }
                body.append("]}")
            }
            body.append("]}")
        }
    }

    /// The bytes of a `/nearby` body besides its matches: the envelope and the query's
    /// two numbers (a `Double.description` has at most 24 characters).
    private static let nearbyEnvelopeBound = 128
    /// The bytes of a `/nearby` match besides its head and its photos' summaries: a
    /// comma, the count (at most 20 digits), `distanceMeters` and its number (at most
    /// 24 characters), `"bearing"` and its number (at most 5), `"photos":[` and the closing `]}`.
    private static let nearbyMatchBound = 112

    /// Appends a location's object up to and including `"photoCount":`: the caller
    /// writes the count, its own members and the closing brace.
    func appendLocationHead(_ location: Int, to body: inout some CatalogByteSink & ~Copyable) {
        fragments.append(Int(locationFragments[location]), to: &body)
    }

    /// Appends, comma-separated, the PhotoSummaries of the first `limit` photos of a
    /// location that pass the filter (years, topic), in source order.
    func appendMatchingPhotos(
        of location: Int, filter: PhotoFilter, limit: Int, to body: inout some CatalogByteSink & ~Copyable
    ) {
        let photos = catalog.photoRange(location: location)
        guard filter.filtersPhotos else {
            // Without a photo filter every photo counts: the first ones follow the head.
            let head = Int(locationFragments[location])
            fragments.append(run: (head + 1)..<(head + 1 + min(photos.count, limit)), to: &body)
            return
        }
        var written = 0
        for photo in photos {
            if written == limit { break }
            guard catalog.photo(photo, matches: filter) else { continue }
            if written > 0 { body.append(UInt8(ascii: ",")) }
            fragments.append(Int(photoFragments[photo]), to: &body)
            written += 1
        }
    }

    /// Appends the PhotoSummary of a photo (an index in `catalog.photos`).
    func appendPhotoSummary(_ photo: Int, to body: inout some CatalogByteSink & ~Copyable) {
        fragments.append(Int(photoFragments[photo]), to: &body)
    }

    /// `{"locations":[Location + thumbnailURL],"total":…,"truncated":…}`, written into
    /// one allocation of its bound.
    /// - Parameter everyPhoto: whether the matches count all their photos (no photo
    ///   filter), so each entry is the location's precomputed one.
    func regionBody(_ result: RegionResult, everyPhoto: Bool) -> [UInt8] {
        var capacity = Self.regionEnvelopeBound
        for match in result.matches {
            if everyPhoto, match.photoCount > 0 {
                regionEntries.prefetch(run: match.location..<(match.location + 1))
                capacity += 1 + regionEntries.size(match.location)
            } else {
                capacity += 1 + Self.regionEntryBound + fragments.size(Int(locationFragments[match.location]))
                    + Int(thumbnailEnds[match.firstPhoto] - thumbnailStarts[match.firstPhoto])
            }
        }
        return CatalogBodyWriter.body(capacity: capacity) { body in
            body.append(#"{"locations":["#)
            for (offset, match) in result.matches.enumerated() {
                if offset > 0 { body.append(UInt8(ascii: ",")) }
                if everyPhoto, match.photoCount > 0 {
                    regionEntries.append(match.location, to: &body)
                } else {
                    appendRegionEntry(match, to: &body)
                }
            }
            CatalogJSON.closeTruncatedList(total: result.total, truncated: result.truncated, to: &body)
        }
    }

    /// The bytes of a `/region` body besides its entries: the envelope, `total` (at
    /// most 20 digits) and `truncated`.
    private static let regionEnvelopeBound = 64
    /// The bytes of a `/region` entry besides its head and thumbnail URL: the count (at
    /// most 20 digits), `"thumbnailURL":` and the closing brace.
    private static let regionEntryBound = 40

    /// A location's `/region` entry: its head, the matching photo count and the
    /// thumbnail of its first matching photo.
    private func appendRegionEntry(_ match: RegionMatch, to body: inout some CatalogByteSink & ~Copyable) {
        let first = match.firstPhoto
        Self.appendRegionEntry(
            head: Int(locationFragments[match.location]), photoCount: match.photoCount, summary: Int(photoFragments[first]),
            thumbnail: Int(thumbnailStarts[first])..<Int(thumbnailEnds[first]), from: fragments, to: &body)
    }

    /// A `/region` entry from its pieces: the location's head (fragment `head`), the
    /// count, and the thumbnail URL at `thumbnail` in the summary (fragment `summary`).
    private static func appendRegionEntry(
        head: Int, photoCount: Int, summary: Int, thumbnail: Range<Int>, from fragments: CatalogJSONArena,
        to body: inout some CatalogByteSink & ~Copyable
    ) {
        fragments.append(head, to: &body)
        CatalogJSONNumber.append(photoCount, to: &body)
        body.append(#","thumbnailURL":"#)
        fragments.append(summary, part: thumbnail, to: &body)
        body.append(UInt8(ascii: "}"))
    }

    /// `{"total":…,"results":[PlacedPhoto (+ distanceMeters)],"nextCursor":…}`.
    func searchBody(total: Int, photos: [Int], distances: [Double], nextCursor: String?) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(64 + photos.count * 520)
        body.append(#"{"total":"#)
        CatalogJSONNumber.append(total, to: &body)
        body.append(#","results":["#)
        for (offset, photo) in photos.enumerated() {
            if offset > 0 { body.append(UInt8(ascii: ",")) }
            appendOpenPlacedPhoto(photo, to: &body)
            if offset < distances.count {
                body.append(#","distanceMeters":"#)
                CatalogJSONNumber.appendCentimetres(distances[offset], to: &body)
            }
            body.append(UInt8(ascii: "}"))
        }
        body.append(#"],"nextCursor":"#)
        if let nextCursor { JSONString.append(nextCursor, to: &body) } else { body.append("null") }
        body.append(UInt8(ascii: "}"))
        return body
    }

    /// `/locations/{locationID}`: `Location + "photos": [PhotoSummary], "nextCursor"`, the
    /// page of the location's photos passing the filter (years, topic) that starts after
    /// `offset` of them; `photoCount` counts them all. `cursor` makes the next page's
    /// cursor from its offset.
    func locationBody(
        _ location: Int, filter: PhotoFilter, offset: Int, limit: Int, cursor: (Int) -> String
    ) -> [UInt8] {
        let head = Int(locationFragments[location])
        let photos = catalog.photoRange(location: location)
        var body: [UInt8] = []
        var matchCount = photos.count
        let pageEnd: Int
        if filter.filtersPhotos {
            var page: [Int] = []
            matchCount = 0
            for photo in photos where catalog.photo(photo, matches: filter) {
                if matchCount >= offset, page.count < limit { page.append(photo) }
                matchCount += 1
            }
            pageEnd = offset + page.count
            body.reserveCapacity(fragments.size(head) + Self.locationEnvelopeBound + page.reduce(0) { $0 + fragments.size(Int(photoFragments[$1])) + 1 })
            fragments.append(head, to: &body)
            CatalogJSONNumber.append(matchCount, to: &body)
            body.append(#","photos":["#)
            for (index, photo) in page.enumerated() {
                if index > 0 { body.append(UInt8(ascii: ",")) }
                fragments.append(Int(photoFragments[photo]), to: &body)
            }
        } else {
            // Without a photo filter the page is one run of the summaries after the head.
            let start = min(offset, matchCount)
            pageEnd = min(start + limit, matchCount)
            let run = (head + 1 + start)..<(head + 1 + pageEnd)
            body.reserveCapacity(fragments.size(head) + Self.locationEnvelopeBound + (run.isEmpty ? 0 : fragments.size(run: run)))
            fragments.append(head, to: &body)
            CatalogJSONNumber.append(matchCount, to: &body)
            body.append(#","photos":["#)
            if !run.isEmpty { fragments.append(run: run, to: &body) }
        }
        body.append(#"],"nextCursor":"#)
        if pageEnd < matchCount { JSONString.append(cursor(pageEnd), to: &body) } else { body.append("null") }
        body.append(UInt8(ascii: "}"))
        return body
    }

    /// The bytes of a `/locations/{locationID}` body besides its head and its photos'
    /// summaries: the count, `"photos":[`, `"nextCursor":` and a cursor of at most 40 bytes.
    private static let locationEnvelopeBound = 96

    /// The full photo: PhotoSummary plus location, labels, folder, text, years and nyplURL,
    /// spliced from three precomputed pieces: the photo's summary without its closing
    /// brace, its location's place (`locationID` to `borough`) and the photo's tail.
    func photoBody(_ index: Int) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(photoSize(index))
        appendPhoto(index, to: &body)
        return body
    }

    /// Appends the full photo `photoBody` returns.
    private func appendPhoto(_ index: Int, to body: inout some CatalogByteSink & ~Copyable) {
        let summary = Int(photoFragments[index])
        let location = catalog.photos[index].locationIndex
        fragments.append(summary, part: 0..<(fragments.size(summary) - 1), to: &body)
        body.append(UInt8(ascii: ","))
        fragments.append(Int(locationFragments[location]), part: 1..<Int(intersectionStarts[location]), to: &body)
        body.append(UInt8(ascii: ","))
        photoTails.append(index, part: 1..<photoTails.size(index), to: &body)
    }

    /// The length of a full photo: its summary without the closing brace, a comma, its
    /// place (after the head's opening brace), a comma, its tail without the opening brace.
    private func photoSize(_ index: Int) -> Int {
        let location = catalog.photos[index].locationIndex
        return (fragments.size(Int(photoFragments[index])) - 1) + 1 + (Int(intersectionStarts[location]) - 1) + 1
            + (photoTails.size(index) - 1)
    }

    /// `GET /catalog/snapshot`: JSON Lines, one line per location in `locationID` order
    /// (the catalog's), each the Location (as `/locations/{locationID}` has it) with
    /// `"photos"`: every one of its photos as `photoBody` writes it, in source order.
    /// Written into one allocation of its bound, from the same fragments as every
    /// other answer, so a line never disagrees with the endpoints.
    func snapshotBody() -> [UInt8] {
        var capacity = 0
        for location in catalog.locations.indices {
            let photos = catalog.photoRange(location: location)
            capacity += fragments.size(Int(locationFragments[location])) + Self.snapshotLineBound + photos.count
            for photo in photos { capacity += photoSize(photo) }
        }
        return CatalogBodyWriter.body(capacity: capacity) { body in
            for location in catalog.locations.indices {
                let photos = catalog.photoRange(location: location)
                fragments.append(Int(locationFragments[location]), to: &body)
                CatalogJSONNumber.append(photos.count, to: &body)
                body.append(#","photos":["#)
                for photo in photos {
                    if photo != photos.lowerBound { body.append(UInt8(ascii: ",")) }
                    appendPhoto(photo, to: &body)
                }
                body.append("]}\n")
            }
        }
    }

    /// The bytes of a snapshot line besides its head, its photos and the commas between
    /// them: the count (at most 20 digits), `,"photos":[` and the closing `]}` and newline.
    private static let snapshotLineBound = 40

    /// `{"intersection":…,"folder":…,"text":…,"years":[…],"nyplURL":…}`: the members of a
    /// full photo after its location's, in contract order.
    private static func writePhotoTail(of photo: borrowing CatalogPhoto, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("intersection", photo.intersection)
        writer.field("folder", photo.folder)
        writer.field("text", photo.text)
        writer.key("years")
        writer.beginArray()
        for year in photo.years { writer.string(year) }
        writer.endArray()
        writer.field("nyplURL", photo.nyplURL)
        writer.endObject()
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

    /// The PhotoSummary members after `photoID` and `thumbnailURL`, in contract order:
    /// `imageURL` after the source's URLs, the photo as this server serves it.
    private static func writeSummaryTail(of photo: borrowing CatalogPhoto, into writer: inout JSONWriter) {
        writer.field("photoURL", photo.photoURL)
        writer.field("imageURL", ImageRoutes.path(ofPhoto: photo.photoID))
        writer.field("width", photo.width)
        writer.field("height", photo.height)
        writer.field("title", photo.title)
        writer.field("date", photo.date)
    }

    /// A location's members before its `intersection`: `locationID` to `borough`.
    private static func writeLocationPlace(_ location: CatalogLocation, into writer: inout JSONWriter) {
        writer.field("locationID", location.locationID)
        writer.field("latitude", location.latitude)
        writer.field("longitude", location.longitude)
        writer.field("borough", location.borough?.rawValue)
    }

    /// Ends a list that `limit` may have cut (`/region`, `/clusters`): closes the
    /// array, then `"total"` (the matches before the limit) and `"truncated"`.
    static func closeTruncatedList(total: Int, truncated: Bool, to body: inout some CatalogByteSink & ~Copyable) {
        body.append(#"],"total":"#)
        CatalogJSONNumber.append(total, to: &body)
        body.append(#","truncated":"#)
        body.append(truncated ? "true" : "false")
        body.append(UInt8(ascii: "}"))
    }

    private static func encodeBoroughs(_ summaries: [BoroughSummary]) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginArray()
        for summary in summaries {
            writer.beginObject()
            writer.field("name", summary.borough.rawValue)
            writer.field("locationCount", summary.locationCount)
            writer.field("photoCount", summary.photoCount)
            writer.field("bbox", object: summary.bbox) { writer, box in
                writer.field("south", box.south)
                writer.field("west", box.west)
                writer.field("north", box.north)
                writer.field("east", box.east)
            }
            writer.endObject()
        }
        writer.endArray()
        return writer.bytes
    }
}
