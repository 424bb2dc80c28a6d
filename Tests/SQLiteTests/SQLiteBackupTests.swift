import Foundation
import SQLite
import TestSupportCore
import Testing

/// `SQLiteBackup` copies one moment of a WAL database: writes committed by another
/// connection between two slices are not in the copy, and do not restart it.
@Suite struct SQLiteBackupTests {
    static let rows = 2_000

    /// A WAL database of `rows` rows of 200 bytes (about a hundred pages), with a writer
    /// connection kept open (so its WAL stays, as under a running server).
    private static func source(in folder: TemporaryDirectory) throws -> (path: String, writer: SQLiteConnection) {
        let path = folder.file("source.sqlite")
        let writer = try SQLiteConnection(path: path)
        try writer.execute("PRAGMA journal_mode = WAL")
        try writer.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, filler BLOB NOT NULL)")
        try writer.transaction {
            for id in 1...rows { try writer.execute("INSERT INTO t (id, filler) VALUES (?, zeroblob(200))", [.integer(Int64(id))]) }
        }
        return (path, writer)
    }

    @Test func writesBetweenSlicesAreNotInTheCopy() throws {
        let folder = try TemporaryDirectory(prefix: "sqlite-backup")
        let (path, writer) = try Self.source(in: folder)
        let backup = try SQLiteBackup(sourcePath: path, destinationPath: folder.file("copy.sqlite"))
        #expect(try backup.step(pages: 1) == false)
        let pages = backup.pageCount
        #expect(pages > 50)
        // Written and committed after the moment, while the copy is half made.
        try writer.transaction {
            try writer.execute("DELETE FROM t WHERE id <= 500", [])
            try writer.execute("INSERT INTO t (id, filler) VALUES (?, zeroblob(200))", [.integer(Int64(Self.rows + 1))])
        }
        var calls = 1
        while true {
            calls += 1
            if try backup.step(pages: 8) { break }
        }
        try backup.finish()
        // A restarted copy would have taken more calls than the pages need.
        #expect(calls == 1 + (pages - 1 + 7) / 8)

        let copy = try SQLiteConnection(path: folder.file("copy.sqlite"), mode: .readOnly)
        #expect(try copy.queryFirst("SELECT count(*), min(id), max(id) FROM t") { [$0.int(0), $0.int(1), $0.int(2)] } == [Self.rows, 1, Self.rows])
        #expect(try copy.queryFirst("PRAGMA integrity_check") { $0.text(0) } == "ok")
        #expect(try writer.queryFirst("SELECT count(*) FROM t") { $0.int(0) } == Self.rows - 500 + 1)
    }

    @Test func aFileThatIsNotADatabaseFailsTheCopy() throws {
        let folder = try TemporaryDirectory(prefix: "sqlite-backup")
        let path = folder.file("garbage.sqlite")
        try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: path))
        #expect(throws: SQLiteError.self) {
            let backup = try SQLiteBackup(sourcePath: path, destinationPath: folder.file("copy.sqlite"))
            _ = try backup.step(pages: -1)
        }
    }

    @Test func aMissingSourceIsNotCreated() throws {
        let folder = try TemporaryDirectory(prefix: "sqlite-backup")
        #expect(throws: SQLiteError.self) {
            _ = try SQLiteBackup(sourcePath: folder.file("missing.sqlite"), destinationPath: folder.file("copy.sqlite"))
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("missing.sqlite")))
    }
}
