import Catalog
import Foundation
import Glibc
import SQLite
import Testing
import TestSupport

/// `kill -9` in the middle of a catalog build (`past-nyc import`): the data directory
/// never holds a half-built catalog. With no catalog before, the next start builds a
/// whole one; with an old one, it is left byte for byte as it was and served.
@Suite(.serialized) struct CatalogBuildCrashTests {
    /// Bytes the build's temporary file must reach before the kill, so the kill lands
    /// mid-build rather than before it wrote anything.
    static let killAtBytes = 512 * 1024

    @Test func aKilledFirstBuildIsRebuiltWhole() throws {
        let directory = try TemporaryDirectory(prefix: "catalog-crash")
        try Self.killImportMidway(dataDirectory: directory.path)
        #expect(!FileManager.default.fileExists(atPath: directory.file(CatalogStore.databaseFileName)),
            "a half-built catalog was installed")

        let server = try ServerProcess(dataDirectory: directory.path)
        #expect(try RawHTTPClient(port: server.port).request("GET", "/healthz").status == 200)
        server.stop()
        try Self.expectSameCatalog(directory.file(CatalogStore.databaseFileName), try SharedCatalog.path())
        #expect(try Self.temporaries(in: directory.path).isEmpty, "the killed build's file was not removed")
    }

    @Test func aKilledRebuildLeavesTheOldCatalogServed() throws {
        let directory = try TemporaryDirectory(prefix: "catalog-crash-old")
        let path = directory.file(CatalogStore.databaseFileName)
        try FileManager.default.copyItem(atPath: try SharedCatalog.path(), toPath: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        try Self.killImportMidway(dataDirectory: directory.path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the old catalog was changed")

        let server = try ServerProcess(dataDirectory: directory.path)
        let photo = try RawHTTPClient(port: server.port).request("GET", "/nearby?lat=40.7306&lon=-73.9866&limit=1")
        #expect(photo.status == 200)
        server.stop()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the old catalog was rebuilt, not used")
        #expect(try Self.temporaries(in: directory.path).isEmpty, "the killed build's file was not removed")
    }

    /// Runs `past-nyc import` and kills it with SIGKILL once its temporary file has
    /// grown to `killAtBytes`; fails if the build ends first.
    private static func killImportMidway(dataDirectory: String) throws {
        let root = PackageRoot.path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ServerProcess.executable)
        process.arguments = ["import", "--data-dir", dataDirectory, "--source-dir", root + "/Data"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = ContinuousClock.now + .seconds(120)
        var size = 0
        while process.isRunning, size < killAtBytes, ContinuousClock.now < deadline {
            size = try temporaries(in: dataDirectory).map { try fileSize(dataDirectory + "/" + $0) }.max() ?? 0
            usleep(2_000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try #require(process.terminationReason == .uncaughtSignal, "the build ended before the kill")
        try #require(!temporaries(in: dataDirectory).isEmpty, "no build was under way when killed")
    }

    private static func temporaries(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter {
            $0.hasPrefix(CatalogStore.databaseFileName + ".tmp-")
        }
    }

    private static func fileSize(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    /// Both databases pass `PRAGMA integrity_check` and hold the same tables with the
    /// same number of rows each.
    private static func expectSameCatalog(_ path: String, _ reference: String) throws {
        func tables(_ connection: SQLiteConnection) throws -> [String: Int] {
            let names = try connection.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") { $0.text(0) }
            var counts: [String: Int] = [:]
            for name in names {
                counts[name] = try connection.queryFirst("SELECT count(*) FROM \"\(name)\"") { $0.int(0) }
            }
            return counts
        }
        let rebuilt = try SQLiteConnection(path: path, mode: .readOnly)
        let original = try SQLiteConnection(path: reference, mode: .readOnly)
        #expect(try rebuilt.queryFirst("PRAGMA integrity_check") { $0.text(0) } == "ok")
        let counts = try tables(rebuilt)
        #expect(!counts.isEmpty)
        #expect(counts == (try tables(original)))
    }
}
