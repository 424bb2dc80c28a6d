import SQLite

/// Inserts location records into a fresh catalog database with statements prepared once.
///
/// Not `Sendable`: it owns statements of one connection.
final class CatalogWriter {
    private let insertLocation: Statement
    private let insertPhoto: Statement
    private let insertYear: Statement
    private let insertTopic: Statement
    private let insertSearchRow: Statement
    /// How many photos were written so far.
    private(set) var photoCount = 0

    init(connection: SQLiteConnection) throws {
        insertLocation = try connection.prepare(
            "INSERT INTO locations (position, location_id, latitude, longitude, borough, intersection) VALUES (?, ?, ?, ?, ?, ?)")
        insertPhoto = try connection.prepare(
            """
            INSERT INTO photos (position, photo_id, location, title, date, folder, text, width, height,
                                thumbnail_url, photo_url, nypl_url, intersection, rotation)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        insertYear = try connection.prepare("INSERT INTO photo_years (photo, position, year) VALUES (?, ?, ?)")
        insertTopic = try connection.prepare("INSERT INTO photo_topics (photo, position, topic) VALUES (?, ?, ?)")
        insertSearchRow = try connection.prepare(
            "INSERT INTO photo_search (rowid, intersection, title, folder, text) VALUES (?, ?, ?, ?, ?)")
    }

    /// Writes one location (line `position` of the source, 0-based) and its photos.
    /// A repeated locationID or photo ID fails on the UNIQUE constraints.
    func insert(_ record: LocationRecord, position: Int) throws {
        let intersection = record.intersection
        try insertLocation.bind([
            SQLiteValue(position), .text(CatalogLocation.identifier(latitude: record.latitude, longitude: record.longitude)),
            .real(record.latitude), .real(record.longitude), SQLiteValue(record.borough?.rawValue),
            SQLiteValue(intersection),
        ])
        try insertLocation.step()
        for (photo, topics) in zip(record.photos, record.topics) {
            try insertPhoto.bind([
                SQLiteValue(photoCount), .text(photo.photoID), SQLiteValue(position), SQLiteValue(photo.title),
                SQLiteValue(photo.date), SQLiteValue(photo.folder), SQLiteValue(photo.text), SQLiteValue(photo.width),
                SQLiteValue(photo.height), .text(photo.thumbnailURL), .text(photo.photoURL), .text(photo.nyplURL),
                SQLiteValue(photo.intersection), SQLiteValue(photo.sourceRotation),
            ])
            try insertPhoto.step()
            for (index, year) in photo.years.enumerated() {
                try insertYear.bind([SQLiteValue(photoCount), SQLiteValue(index), .text(year)])
                try insertYear.step()
            }
            for (index, topic) in topics.enumerated() {
                try insertTopic.bind([SQLiteValue(photoCount), SQLiteValue(index), .text(topic)])
                try insertTopic.step()
            }
            try insertSearchRow.bind([
                SQLiteValue(photoCount), .text(SearchIndex.placeColumn(photo: photo.intersection, location: intersection)),
                .text(SearchWords.indexedText(photo.title)), .text(SearchWords.indexedText(photo.folder)),
                .text(SearchWords.indexedText(photo.text)),
            ])
            try insertSearchRow.step()
            photoCount += 1
        }
    }
}
