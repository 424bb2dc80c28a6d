import Catalog
import Foundation
import Gzip
import Testing

@Suite struct CatalogStoreTests {
    private static func inode(_ path: String) throws -> UInt {
        var info = stat()
        guard stat(path, &info) == 0 else { throw CatalogError.fileSystem(operation: "stat", path: path, errno: errno) }
        return UInt(info.st_ino)
    }

    private static func entries(_ directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    }

    @Test func reusesACurrentCatalogAndRebuildsWhenTheDataChanges() throws {
        let lines = try CatalogFixture.sourceLines(60)
        let firstSource = try CatalogFixture.sourceDirectory(lines: Array(lines.prefix(40)))
        let secondSource = try CatalogFixture.sourceDirectory(lines: lines)
        let data = try CatalogFixture.temporaryDirectory()
        let database = data + "/catalog.sqlite"

        let first = try CatalogStore.openOrBuild(dataDirectory: data, sourceDirectory: firstSource)
        #expect(first.locations.count == 40)
        let builtInode = try Self.inode(database)

        let again = try CatalogStore.openOrBuild(dataDirectory: data, sourceDirectory: firstSource)
        #expect(try Self.inode(database) == builtInode, "a current catalog is loaded, not rebuilt")
        #expect(again.dataVersion == first.dataVersion)
        #expect(again.photos.map(\.photoID) == first.photos.map(\.photoID))

        let changed = try CatalogStore.openOrBuild(dataDirectory: data, sourceDirectory: secondSource)
        #expect(changed.locations.count == 60)
        #expect(changed.dataVersion != first.dataVersion)
        #expect(try Self.entries(data) == ["catalog.sqlite"])
    }

    @Test func buildAlwaysRebuilds() throws {
        let source = try CatalogFixture.sourceDirectory(lines: try CatalogFixture.sourceLines(5))
        let data = try CatalogFixture.temporaryDirectory()
        try CatalogStore.build(dataDirectory: data, sourceDirectory: source)
        let firstInode = try Self.inode(data + "/catalog.sqlite")
        try CatalogStore.build(dataDirectory: data, sourceDirectory: source)
        #expect(try Self.inode(data + "/catalog.sqlite") != firstInode)
        #expect(try CatalogStore.openOrBuild(dataDirectory: data, sourceDirectory: source).locations.count == 5)
    }

    @Test func aFailedBuildLeavesThePreviousCatalogInPlace() throws {
        let lines = try CatalogFixture.sourceLines(30)
        let goodSource = try CatalogFixture.sourceDirectory(lines: Array(lines.prefix(20)))
        let corruptSource = try CatalogFixture.sourceDirectory(lines: Array(lines.prefix(25)) + ["{\"latitude\": 40.7,"] + lines.suffix(5))
        let data = try CatalogFixture.temporaryDirectory()
        let previous = try CatalogStore.openOrBuild(dataDirectory: data, sourceDirectory: goodSource)
        let previousInode = try Self.inode(data + "/catalog.sqlite")

        #expect(throws: CatalogError.self) {
            try CatalogStore.build(dataDirectory: data, sourceDirectory: corruptSource)
        }
        #expect(throws: CatalogError.self) {
            try CatalogStore.openOrBuild(dataDirectory: data, sourceDirectory: corruptSource)
        }
        #expect(try Self.inode(data + "/catalog.sqlite") == previousInode)
        #expect(try Self.entries(data) == ["catalog.sqlite"], "no temporary file is left behind")
        let reloaded = try CatalogStore.openOrBuild(dataDirectory: data, sourceDirectory: goodSource)
        #expect(reloaded.photos.map(\.photoID) == previous.photos.map(\.photoID))
        #expect(try Self.inode(data + "/catalog.sqlite") == previousInode)

        let biggerSource = try CatalogFixture.sourceDirectory(lines: lines)
        #expect(try CatalogStore.openOrBuild(dataDirectory: data, sourceDirectory: biggerSource).locations.count == 30)
    }

    @Test func anUnreadableCatalogFileIsRebuilt() throws {
        let source = try CatalogFixture.sourceDirectory(lines: try CatalogFixture.sourceLines(3))
        let data = try CatalogFixture.temporaryDirectory()
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: data + "/catalog.sqlite"))
        #expect(try CatalogStore.openOrBuild(dataDirectory: data, sourceDirectory: source).locations.count == 3)
    }

    @Test func abandonedTemporaryFilesOfDeadBuildsAreRemoved() throws {
        let source = try CatalogFixture.sourceDirectory(lines: try CatalogFixture.sourceLines(3))
        let data = try CatalogFixture.temporaryDirectory()
        // PID 2^22 + 1 is above Linux's pid_max limit, so no process has it.
        try Data("half a catalog".utf8).write(to: URL(fileURLWithPath: data + "/catalog.sqlite.tmp-4194305"))
        _ = try CatalogStore.openOrBuild(dataDirectory: data, sourceDirectory: source)
        #expect(try Self.entries(data) == ["catalog.sqlite"])
    }

    /// Each case: the lines of a locations file (`GOOD` and `SECOND` stand for the first two
    /// real lines, `PHOTOS` for the first line's photos), and the line the error must name.
    static let malformedFiles: [(lines: [String], line: Int)] = [
        (["{\"latitude\": 40.7, \"longitude\": -73.9, \"photos\": [}"], 1),
        (["GOOD", "SECOND", "not json at all"], 3),
        (["GOOD", "{\"latitude\": 40.7, \"photos\": []}"], 2),
        (["GOOD", "{\"latitude\": 91, \"longitude\": -73.9, \"photos\": PHOTOS}"], 2),
        (["GOOD", "{\"latitude\": 40.1, \"longitude\": -73.9, \"photos\": []}"], 2),
        (["GOOD", "{\"latitude\": \"north\", \"longitude\": -73.9, \"photos\": PHOTOS}"], 2),
        (["GOOD", "SECOND", "{\"latitude\": 40.1, \"longitude\": -73.9, \"photos\": [{\"id\": 5}]}"], 3),
        (["GOOD", "GOOD"], 2),  // the same location twice
        (["GOOD", "[1, 2]"], 2),
    ]

    @Test(arguments: malformedFiles.indices)
    func aMalformedLineIsATypedErrorNamingIt(_ index: Int) throws {
        let samples = try CatalogFixture.sourceLines(2)
        let sample = samples[0]
        let photos = try #require(sample.range(of: "\"photos\": ")).upperBound
        let photosJSON = String(sample[photos...].dropLast())
        let lines = Self.malformedFiles[index].lines.map {
            switch $0 {
            case "GOOD": sample
            case "SECOND": samples[1]
            default: $0.replacingOccurrences(of: "PHOTOS", with: photosJSON)
            }
        }
        let source = try CatalogFixture.sourceDirectory(lines: lines)
        let data = try CatalogFixture.temporaryDirectory()
        #expect {
            try CatalogStore.build(dataDirectory: data, sourceDirectory: source)
        } throws: { error in
            guard case CatalogError.malformedLine(let path, let line, let reason) = error else { return false }
            return path.hasSuffix("oldnyc-locations.jsonl.gz") && line == Self.malformedFiles[index].line && !reason.isEmpty
        }
        #expect(try Self.entries(data).isEmpty)
    }

    @Test func missingSourceFilesAreNamed() throws {
        let empty = try CatalogFixture.temporaryDirectory()
        #expect {
            _ = try CatalogStore.openOrBuild(dataDirectory: try CatalogFixture.temporaryDirectory(), sourceDirectory: empty)
        } throws: { error in
            guard case CatalogError.unreadableFile(let path, _) = error else { return false }
            return path.hasSuffix("oldnyc-locations.jsonl.gz")
        }
    }

    @Test func aTruncatedGzipFileIsATypedError() throws {
        let source = try CatalogFixture.sourceDirectory(lines: try CatalogFixture.sourceLines(40))
        let path = source + "/oldnyc-locations.jsonl.gz"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
        #expect {
            try CatalogStore.build(dataDirectory: try CatalogFixture.temporaryDirectory(), sourceDirectory: source)
        } throws: { error in
            guard case CatalogError.unreadableFile(let failing, _) = error else { return false }
            return failing == path
        }
    }
}
