import SQLite

/// The catalog database layout. The catalog is rebuilt, never migrated: a file with
/// another `formatVersion` is simply rebuilt from the source data.
enum CatalogSchema {
    /// Bump whenever the tables or the meaning of a stored value change, or what the
    /// catalog reads answer does: it is part of every catalog ETag (`SourceFiles.dataVersion`).
    /// Version 2 added the full-text index `photo_search`; version 3 the postings
    /// derived from it (`photo_search_words`, `photo_search_lengths`); version 4 the
    /// photos' subject topics (`photo_topics`); version 5 the offline snapshot's gzip copy
    /// (`catalog_snapshot`, `CatalogStore.SnapshotRenderer`); version 6 the source's
    /// `rotation` of each photo, and the snapshot's gzip copy in blocks
    /// (`catalog_snapshot_blocks`), which the generations of corrections reuse; version 7
    /// PhotoSummary's `imageURL` (every catalog answer, and the snapshot, changed).
    static let formatVersion = 7

    static let metaFormatVersion = "format_version"
    static let metaLocationsDigest = "locations_sha256"
    static let metaBoroughsDigest = "boroughs_sha256"

    /// `position` columns keep the source file's order: locations by line,
    /// photos in file order, years in record order.
    static let statements = """
        CREATE TABLE catalog_meta (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE locations (
            position INTEGER PRIMARY KEY,
            location_id TEXT NOT NULL UNIQUE,
            latitude REAL NOT NULL,
            longitude REAL NOT NULL,
            borough TEXT,
            intersection TEXT
        );
        CREATE TABLE photos (
            position INTEGER PRIMARY KEY,
            photo_id TEXT NOT NULL UNIQUE,
            location INTEGER NOT NULL REFERENCES locations(position),
            title TEXT,
            date TEXT,
            folder TEXT,
            text TEXT,
            width INTEGER NOT NULL,
            height INTEGER NOT NULL,
            thumbnail_url TEXT NOT NULL,
            photo_url TEXT NOT NULL,
            nypl_url TEXT NOT NULL,
            intersection TEXT,
            rotation INTEGER NOT NULL CHECK (rotation IN (0, 90, 180, 270))
        );
        CREATE TABLE photo_years (
            photo INTEGER NOT NULL REFERENCES photos(position),
            position INTEGER NOT NULL,
            year TEXT NOT NULL,
            PRIMARY KEY (photo, position)
        ) WITHOUT ROWID;
        CREATE TABLE photo_topics (
            photo INTEGER NOT NULL REFERENCES photos(position),
            position INTEGER NOT NULL,
            topic TEXT NOT NULL,
            PRIMARY KEY (photo, position)
        ) WITHOUT ROWID;
        CREATE TABLE catalog_snapshot_blocks (
            position INTEGER PRIMARY KEY,
            crc32 INTEGER NOT NULL,
            length INTEGER NOT NULL,
            deflated BLOB NOT NULL
        );
        """ + SearchIndex.statements
}
