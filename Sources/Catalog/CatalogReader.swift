import SQLite

/// Reads a catalog database written by `CatalogStore`.
enum CatalogReader {
    /// Whether the database at `path` is a complete catalog of this format built from
    /// exactly `sources`. A file that cannot be read as one is not current: the catalog
    /// is derived data, so the caller rebuilds it.
    static func isCurrent(path: String, sources: SourceFiles) -> Bool {
        do {
            let connection = try Connection(path: path, mode: .readOnly)
            let meta = try connection.query("SELECT key, value FROM catalog_meta") { ($0.text(0), $0.text(1)) }
            let values = Dictionary(meta, uniquingKeysWith: { first, _ in first })
            return values[CatalogSchema.metaFormatVersion] == String(CatalogSchema.formatVersion)
                && values[CatalogSchema.metaLocationsDigest] == sources.locationsDigest
                && values[CatalogSchema.metaBoroughsDigest] == sources.boroughsDigest
        } catch {
            return false
        }
    }

    /// Loads every location, photo and year into memory.
    static func load(path: String) throws -> PhotoCatalog {
        let connection = try Connection(path: path, mode: .readOnly)
        func fail(_ reason: String) -> CatalogError { .malformedDatabase(path: path, reason: reason) }

        let meta = try connection.query("SELECT key, value FROM catalog_meta") { ($0.text(0), $0.text(1)) }
        let values = Dictionary(meta, uniquingKeysWith: { first, _ in first })
        guard values[CatalogSchema.metaFormatVersion] == String(CatalogSchema.formatVersion),
            let locationsDigest = values[CatalogSchema.metaLocationsDigest],
            let boroughsDigest = values[CatalogSchema.metaBoroughsDigest]
        else { throw fail("not a catalog of format version \(CatalogSchema.formatVersion)") }

        var years: [Int: [String]] = [:]
        let yearRows = try connection.prepare("SELECT photo, year FROM photo_years ORDER BY photo, position")
        while try yearRows.step() {
            years[yearRows.int(0), default: []].append(yearRows.text(1))
        }

        var photos: [CatalogPhoto] = []
        let photoRows = try connection.prepare(
            """
            SELECT position, photo_id, location, title, date, folder, text, width, height,
                   thumbnail_url, photo_url, nypl_url, intersection
            FROM photos ORDER BY position
            """)
        while try photoRows.step() {
            guard photoRows.int(0) == photos.count else { throw fail("photo positions are not contiguous") }
            photos.append(
                CatalogPhoto(
                    photoID: photoRows.text(1), title: photoRows.optionalText(3), date: photoRows.optionalText(4),
                    folder: photoRows.optionalText(5), text: photoRows.optionalText(6), years: years[photos.count] ?? [],
                    width: photoRows.int(7), height: photoRows.int(8), thumbnailURL: photoRows.text(9),
                    photoURL: photoRows.text(10), nyplURL: photoRows.text(11), intersection: photoRows.optionalText(12),
                    locationIndex: photoRows.int(2)))
        }

        var locations: [CatalogLocation] = []
        var nextPhoto = 0
        let locationRows = try connection.prepare(
            "SELECT position, latitude, longitude, borough, intersection FROM locations ORDER BY position")
        while try locationRows.step() {
            let position = locationRows.int(0)
            guard position == locations.count else { throw fail("location positions are not contiguous") }
            let first = nextPhoto
            while nextPhoto < photos.count, photos[nextPhoto].locationIndex == position { nextPhoto += 1 }
            guard nextPhoto > first else { throw fail("location \(position) has no photos") }
            var borough: Borough?
            if let name = locationRows.optionalText(3) {
                guard let known = Borough(rawValue: name) else { throw fail("unknown borough \(name)") }
                borough = known
            }
            locations.append(
                CatalogLocation(
                    latitude: locationRows.double(1), longitude: locationRows.double(2), borough: borough,
                    intersection: locationRows.optionalText(4), photos: first..<nextPhoto))
        }
        guard nextPhoto == photos.count else { throw fail("photos out of location order") }
        return PhotoCatalog(
            sourceOrderLocations: locations, photos: photos,
            dataVersion: SourceFiles.dataVersion(locationsDigest: locationsDigest, boroughsDigest: boroughsDigest))
    }
}
