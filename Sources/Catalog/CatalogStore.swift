import Foundation
import Gzip
import SQLite

#if canImport(Glibc)
    import Glibc
#endif

/// Builds the SQLite catalog (`<dataDirectory>/catalog.sqlite`) from the source data
/// and loads it into a `ShippedCatalog`.
///
/// A build writes everything in one transaction into a fresh temporary file, syncs it
/// and renames it into place (rename(2) is atomic), so a crash or a bad source file
/// never leaves a half-built catalog where the server looks for one.
public enum CatalogStore {
    public static let databaseFileName = "catalog.sqlite"
    /// The files a source directory must hold to build a catalog from.
    public static let sourceFileNames = [SourceFiles.locationsFileName, SourceFiles.boroughsFileName]
    /// The boroughs' outlines (GeoJSON) among them.
    public static let boroughsFileName = SourceFiles.boroughsFileName
    static let temporaryPrefix = databaseFileName + ".tmp-"

    /// Makes the gzip copy of the offline snapshot (`GET /catalog/snapshot`) that a build
    /// stores, in blocks, from the catalog it built. The JSON belongs to the API, so the
    /// caller passes the renderer; the build keeps its result because compressing tens of
    /// megabytes takes seconds that no start should pay. Only the gzip copy is kept: a
    /// start renders the identity bytes again from the catalog in memory, which costs less
    /// than reading them, and reuses every block that still holds the same bytes.
    public typealias SnapshotRenderer = (PhotoCatalog) throws -> [GzipBlock]

    /// Loads the catalog, first building it when it is missing, unreadable, of another
    /// format version, or built from source files with other SHA-256 digests.
    /// - Parameter snapshot: what a build stores as the offline snapshot; without it,
    ///   a build stores none.
    public static func openOrBuild(
        dataDirectory: String, sourceDirectory: String, snapshot: SnapshotRenderer? = nil
    ) throws -> ShippedCatalog {
        let sources = try SourceFiles(directory: sourceDirectory)
        let boroughs = try BoroughMap(contentsOf: sources.boroughsPath)
        let path = databasePath(dataDirectory)
        if FileManager.default.fileExists(atPath: path), CatalogReader.isCurrent(path: path, sources: sources) {
            // A build killed while an older catalog was in place leaves its file behind
            // even though nothing is rebuilt now (found by a kill -9 test).
            removeAbandonedTemporaries(in: dataDirectory)
            return try CatalogReader.load(path: path, boroughs: boroughs)
        }
        return try build(sources, boroughs: boroughs, dataDirectory: dataDirectory, snapshot: snapshot)
    }

    /// Rebuilds the catalog from the source files unconditionally (`past-nyc import`).
    public static func build(dataDirectory: String, sourceDirectory: String, snapshot: SnapshotRenderer? = nil) throws {
        let sources = try SourceFiles(directory: sourceDirectory)
        try build(sources, boroughs: try BoroughMap(contentsOf: sources.boroughsPath), dataDirectory: dataDirectory, snapshot: snapshot)
    }

    /// The blocks of the offline snapshot's gzip copy the catalog of `dataDirectory` was
    /// built with, in order; empty if it was built without one.
    public static func storedSnapshotBlocks(dataDirectory: String) throws -> [GzipBlock] {
        try CatalogReader.snapshotBlocks(path: databasePath(dataDirectory))
    }

    /// Where the catalog database of a data directory lives.
    public static func databasePath(_ dataDirectory: String) -> String {
        (dataDirectory as NSString).appendingPathComponent(databaseFileName)
    }

    /// Returns the catalog as built.
    @discardableResult
    private static func build(
        _ sources: SourceFiles, boroughs: BoroughMap, dataDirectory: String, snapshot: SnapshotRenderer?
    ) throws -> ShippedCatalog {
        do {
            try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        } catch {
            throw CatalogError.unreadableFile(path: dataDirectory, reason: "cannot create the data directory: \(error)")
        }
        removeAbandonedTemporaries(in: dataDirectory)
        let path = databasePath(dataDirectory)
        let temporaryPath = path + ".tmp-\(getpid())"
        try removeIfPresent(temporaryPath)
        var installed = false
        defer {
            if !installed { unlink(temporaryPath) }
        }
        try write(sources, boroughs: boroughs, to: temporaryPath)
        let built = try CatalogReader.load(path: temporaryPath, boroughs: boroughs)
        if let snapshot {
            try write(snapshotBlocks: try snapshot(PhotoCatalog(built)), to: temporaryPath)
        }
        try sync(path: temporaryPath, flags: O_RDONLY)
        guard rename(temporaryPath, path) == 0 else {
            throw CatalogError.fileSystem(operation: "rename", path: temporaryPath, errno: errno)
        }
        installed = true
        // The rename itself is durable only once the directory is synced (fsync(2)).
        try sync(path: dataDirectory, flags: O_RDONLY | O_DIRECTORY)
        return built
    }

    /// Adds the snapshot's gzip blocks to a catalog written by `write(_:boroughs:to:)`, still private.
    private static func write(snapshotBlocks: [GzipBlock], to path: String) throws {
        let connection = try SQLiteConnection(path: path)
        try connection.execute("PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF")
        try connection.transaction(.immediate) {
            for (position, block) in snapshotBlocks.enumerated() {
                try connection.execute(
                    "INSERT INTO catalog_snapshot_blocks (position, crc32, length, deflated) VALUES (?, ?, ?, ?)",
                    [
                        SQLiteValue(position), SQLiteValue(Int(block.trailer.crc32)), SQLiteValue(Int(block.trailer.size)),
                        .blob(block.deflated),
                    ])
            }
        }
    }

    /// Writes the whole catalog in one transaction; the connection closes on return.
    private static func write(_ sources: SourceFiles, boroughs: BoroughMap, to path: String) throws {
        let connection = try SQLiteConnection(path: path)
        // The file is private until renamed and deleted on failure: no rollback
        // journal on disk and no syncs per statement; one fsync at the end.
        try connection.execute("PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF")
        try connection.transaction(.immediate) {
            try connection.execute(CatalogSchema.statements)
            try connection.execute("PRAGMA user_version = \(CatalogSchema.formatVersion)")
            let meta = [
                (CatalogSchema.metaFormatVersion, String(CatalogSchema.formatVersion)),
                (CatalogSchema.metaLocationsDigest, sources.locationsDigest),
                (CatalogSchema.metaBoroughsDigest, sources.boroughsDigest),
            ]
            for (key, value) in meta {
                try connection.execute("INSERT INTO catalog_meta (key, value) VALUES (?, ?)", [.text(key), .text(value)])
            }
            let photoCount = try importLocations(
                sources.locationsPath, boroughs: boroughs, into: CatalogWriter(connection: connection))
            try SearchPostingsWriter.write(connection: connection, path: path, photoCount: photoCount)
        }
    }

    /// Imports every location and its photos; returns how many photos were written.
    private static func importLocations(_ path: String, boroughs: BoroughMap, into writer: CatalogWriter) throws -> Int {
        let decoder = JSONDecoder()
        var position = 0
        do {
            let reader = try GzipFileReader(path: path)
            try reader.forEachLine { line, number in
                guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return }
                func reject(_ reason: String) -> CatalogError { .malformedLine(path: path, line: number, reason: reason) }
                let source: SourceLocation
                do {
                    source = try decoder.decode(SourceLocation.self, from: Data(line))
                } catch let error as DecodingError {
                    throw reject(Self.describe(error))
                } catch {
                    throw reject("\(error)")
                }
                let record = try LocationRecord(source, position: position, boroughs: boroughs, reject: reject)
                do {
                    try writer.insert(record, position: position)
                } catch let error as SQLiteError where error.isConstraintViolation {
                    throw reject("repeats a location or photo ID seen on an earlier line")
                }
                position += 1
            }
        } catch let error as GzipError {
            throw CatalogError.unreadableFile(path: path, reason: error.description)
        }
        guard position > 0 else { throw CatalogError.unreadableFile(path: path, reason: "no locations") }
        return writer.photoCount
    }

    /// A one-line reason for a JSON decoding failure: what was wrong, and where.
    private static func describe(_ error: DecodingError) -> String {
        func place(_ path: [any CodingKey]) -> String {
            path.isEmpty ? "the record" : path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing field \(key.stringValue) in \(place(context.codingPath))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "wrong type at \(place(context.codingPath)): \(context.debugDescription)"
        case .dataCorrupted(let context):
            return "invalid JSON at \(place(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    /// Deletes temporary files of builds whose process no longer exists (it crashed).
    private static func removeAbandonedTemporaries(in directory: String) {
        // Best effort: a leftover file wastes space but is never read as the catalog.
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(temporaryPrefix) {
            guard let pid = pid_t(name.dropFirst(temporaryPrefix.count)), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            unlink((directory as NSString).appendingPathComponent(name))
        }
    }

    private static func removeIfPresent(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw CatalogError.fileSystem(operation: "unlink", path: path, errno: errno)
        }
    }

    private static func sync(path: String, flags: Int32) throws {
        let descriptor = open(path, flags | O_CLOEXEC)
        guard descriptor >= 0 else { throw CatalogError.fileSystem(operation: "open", path: path, errno: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw CatalogError.fileSystem(operation: "fsync", path: path, errno: errno) }
    }
}
