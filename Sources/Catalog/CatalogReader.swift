import Gzip
import SQLite

/// Reads a catalog database written by `CatalogStore`.
enum CatalogReader {
    /// Whether the database at `path` is a complete catalog of this format built from
    /// exactly `sources`. A file that cannot be read as one is not current: the catalog
    /// is derived data, so the caller rebuilds it.
    static func isCurrent(path: String, sources: SourceFiles) -> Bool {
        do {
            let connection = try SQLiteConnection(path: path, mode: .readOnly)
            let meta = try connection.query("SELECT key, value FROM catalog_meta") { ($0.text(0), $0.text(1)) }
            let values = Dictionary(meta, uniquingKeysWith: { first, _ in first })
            return values[CatalogSchema.metaFormatVersion] == String(CatalogSchema.formatVersion)
                && values[CatalogSchema.metaLocationsDigest] == sources.locationsDigest
                && values[CatalogSchema.metaBoroughsDigest] == sources.boroughsDigest
        } catch {
            return false
        }
    }

    /// The blocks of the offline snapshot's gzip copy, in order; empty if the build made none.
    static func snapshotBlocks(path: String) throws -> [GzipBlock] {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        return try connection.query("SELECT crc32, length, deflated FROM catalog_snapshot_blocks ORDER BY position") {
            GzipBlock(
                deflated: $0.blob(2), trailer: GzipTrailer(crc32: UInt32(truncatingIfNeeded: $0.int(0)), size: UInt32(truncatingIfNeeded: $0.int(1))))
        }
    }

    /// Loads every location, photo, year and topic into memory, streaming the rows straight
    /// into their final arrays: locations come out of SQLite already ordered by
    /// `locationID` (the UNIQUE index; BINARY collation is UTF-8 byte order), and each
    /// photo's years and topics are merged in from cursors over the same photo order.
    /// - Parameter boroughs: the outlines the catalog was built with.
    static func load(path: String, boroughs: BoroughMap) throws -> ShippedCatalog {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        func fail(_ reason: String) -> CatalogError { .malformedDatabase(path: path, reason: reason) }

        let meta = try connection.query("SELECT key, value FROM catalog_meta") { ($0.text(0), $0.text(1)) }
        let values = Dictionary(meta, uniquingKeysWith: { first, _ in first })
        guard values[CatalogSchema.metaFormatVersion] == String(CatalogSchema.formatVersion),
            let locationsDigest = values[CatalogSchema.metaLocationsDigest],
            let boroughsDigest = values[CatalogSchema.metaBoroughsDigest]
        else { throw fail("not a catalog of format version \(CatalogSchema.formatVersion)") }

        let locationCount = try connection.queryFirst("SELECT count(*) FROM locations") { $0.int(0) } ?? 0
        let photoCount = try connection.queryFirst("SELECT count(*) FROM photos") { $0.int(0) } ?? 0

        /// Each location's fields, by its rank in `locationID` order.
        var rows:
            [(position: Int, locationID: String, latitude: Double, longitude: Double, borough: Borough?, intersection: String?)] =
            []
        rows.reserveCapacity(locationCount)
        /// The rank of the location at each source position.
        var rankOfPosition = [Int](repeating: -1, count: locationCount)
        let locationRows = try connection.prepare(
            "SELECT position, location_id, latitude, longitude, borough, intersection FROM locations ORDER BY location_id")
        while try locationRows.step() {
            let position = locationRows.int(0)
            guard rankOfPosition.indices.contains(position), rankOfPosition[position] < 0 else {
                throw fail("location positions are not contiguous")
            }
            rankOfPosition[position] = rows.count
            var borough: Borough?
            if let name = locationRows.optionalText(4) {
                guard let known = Borough(rawValue: name) else { throw fail("unknown borough \(name)") }
                borough = known
            }
            rows.append(
                (
                    position, locationRows.text(1), locationRows.double(2), locationRows.double(3), borough,
                    locationRows.optionalText(5)
                ))
        }

        var photos: [CatalogPhoto] = []
        photos.reserveCapacity(photoCount)
        /// Each location's photos, by source position; photos come grouped by location in that order.
        var photoRanges = [Range<Int>](repeating: 0..<0, count: locationCount)
        var currentPosition = -1
        let yearRows = try connection.prepare("SELECT photo, year FROM photo_years ORDER BY photo, position")
        var hasYear = try yearRows.step()
        var topicSpellings: [[String]] = []
        topicSpellings.reserveCapacity(photoCount)
        let topicRows = try connection.prepare("SELECT photo, topic FROM photo_topics ORDER BY photo, position")
        var hasTopic = try topicRows.step()
        let photoRows = try connection.prepare(
            """
            SELECT position, photo_id, location, title, date, folder, text, width, height,
                   thumbnail_url, photo_url, nypl_url, intersection, rotation
            FROM photos ORDER BY position
            """)
        while try photoRows.step() {
            let index = photos.count
            guard photoRows.int(0) == index else { throw fail("photo positions are not contiguous") }
            let position = photoRows.int(2)
            if position != currentPosition {
                guard position == currentPosition + 1 else { throw fail("photos out of location order") }
                currentPosition = position
                guard photoRanges.indices.contains(position) else { throw fail("photo \(index) has no location") }
                photoRanges[position] = index..<index
            }
            photoRanges[position] = photoRanges[position].lowerBound..<(index + 1)
            var years: [String] = []
            while hasYear, yearRows.int(0) == index {
                years.append(yearRows.text(1))
                hasYear = try yearRows.step()
            }
            guard !hasYear || yearRows.int(0) > index else { throw fail("years of a photo that does not exist") }
            var topics: [String] = []
            while hasTopic, topicRows.int(0) == index {
                topics.append(topicRows.text(1))
                hasTopic = try topicRows.step()
            }
            guard !hasTopic || topicRows.int(0) > index else { throw fail("topics of a photo that does not exist") }
            topicSpellings.append(topics)
            photos.append(
                CatalogPhoto(
                    photoID: photoRows.text(1), title: photoRows.optionalText(3), date: photoRows.optionalText(4),
                    folder: photoRows.optionalText(5), text: photoRows.optionalText(6), years: years,
                    width: photoRows.int(7), height: photoRows.int(8), thumbnailURL: photoRows.text(9),
                    photoURL: photoRows.text(10), nyplURL: photoRows.text(11), intersection: photoRows.optionalText(12),
                    locationIndex: rankOfPosition[position], sourceRotation: photoRows.int(13)))
        }
        guard !hasYear else { throw fail("years of a photo that does not exist") }
        guard !hasTopic else { throw fail("topics of a photo that does not exist") }
        guard currentPosition == locationCount - 1 else { throw fail("location \(currentPosition + 1) has no photos") }

        let locations = rows.map { row in
            CatalogLocation(
                locationID: row.locationID, latitude: row.latitude, longitude: row.longitude, borough: row.borough,
                intersection: row.intersection, photos: photoRanges[row.position])
        }
        return ShippedCatalog(
            locations: locations, lines: rows.map(\.position), photos: photos, topicSpellings: topicSpellings,
            dataVersion: SourceFiles.dataVersion(locationsDigest: locationsDigest, boroughsDigest: boroughsDigest),
            boroughs: boroughs)
    }
}
