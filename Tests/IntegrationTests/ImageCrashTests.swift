import Catalog
import Foundation
import Glibc
import Images
import SQLite
import Testing
import TestSupport

/// `kill -9` of the real executable while it fills the image copy, during
/// `past-nyc images prefetch` and during a pack's preparation: afterwards every file the
/// copy holds decodes (nothing torn is ever in place), and the work resumes, asking the
/// source only for what was not kept.
@Suite(.serialized) struct ImageCrashTests {
    /// About 330 photos of lower Manhattan.
    static let box = (south: "40.703", west: "-74.015", north: "40.706", east: "-74.010")
    /// Source requests after which the process is killed.
    static let killAfter = 40

    static func photosInBox() throws -> [CatalogPhoto] {
        let catalog = try SharedCatalog.catalog()
        let region = catalog.region(RegionQuery(south: 40.703, west: -74.015, north: 40.706, east: -74.010, limit: .max))
        return region.matches.flatMap { catalog.photoRange(location: $0.location).map { catalog.photos[$0] } }
    }

    /// The source requests the box's thumbnails still need when the copy holds `kept`
    /// (variant keys): none for a kept thumbnail, none for one made from a kept 600 px
    /// image (images.nypl.org's), else one.
    static func requestsNeeded(keeping kept: Set<String>) throws -> Int {
        try photosInBox().filter { photo in
            !kept.contains(photo.photoID + "/thumb/0") && !(photo.thumbnailURL == photo.photoURL && kept.contains(photo.photoID + "/600/0"))
        }.count
    }

    /// Checks that every file in the copy's folders is a whole JPEG; returns the variants
    /// its index holds (a thumbnail made from the 600 px image keeps that too).
    static func checkCopy(_ dataDirectory: String) throws -> Set<String> {
        let images = dataDirectory + "/images"
        var files = 0
        for folder in try FileManager.default.contentsOfDirectory(atPath: images) where folder.count == 2 {
            for name in try FileManager.default.contentsOfDirectory(atPath: images + "/" + folder) {
                let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: images + "/" + folder + "/" + name)))
                #expect(throws: Never.self, "\(folder)/\(name) is torn") { try JPEGImage.check(bytes) }
                files += 1
            }
        }
        let rows = try SQLiteConnection(path: images + "/index.sqlite").query("SELECT variant FROM images") { $0.text(0) }
        #expect(files >= rows.count, "every row names a file")
        return Set(rows)
    }

    /// Waits until the origin has been asked `count` times.
    static func waitForRequests(_ origin: TestImageOrigin, _ count: Int) throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while origin.totalRequests < count {
            try #require(ContinuousClock.now < deadline, "the source was asked only \(origin.totalRequests) times")
            usleep(10_000)
        }
    }

    static func prefetchArguments(_ directory: String, _ origin: TestImageOrigin) -> [String] {
        [
            "images", "prefetch", "--data-dir", directory, "--source-dir", PackageRoot.path + "/Data", "--image-origin", origin.url,
            "--south", box.south, "--west", box.west, "--north", box.north, "--east", box.east, "--concurrency", "4",
        ]
    }

    @Test func aPrefetchKilledMidwayLeavesWholeImagesAndResumes() throws {
        let origin = try TestImageOrigin()
        origin.setDefault(.slow(.milliseconds(40)))
        let directory = try TemporaryDirectory(prefix: "prefetch-crash")
        try SharedCatalog.copy(into: directory.path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ServerProcess.executable)
        process.arguments = Self.prefetchArguments(directory.path, origin)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try Self.waitForRequests(origin, Self.killAfter)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()

        let needed = try Self.requestsNeeded(keeping: Self.checkCopy(directory.path))
        let photos = try Self.photosInBox()
        #expect(needed > 0 && needed < photos.count)
        origin.setDefault(.jpeg)
        let asked = origin.totalRequests
        let run = try ServerProcess.runToExit(Self.prefetchArguments(directory.path, origin))
        #expect(run.status == 0, "\(run.errorOutput)")
        #expect(origin.totalRequests - asked == needed, "only what was not kept is fetched again")
        #expect(try Self.requestsNeeded(keeping: Self.checkCopy(directory.path)) == 0)
        // Run again: nothing is left to fetch.
        let again = try ServerProcess.runToExit(Self.prefetchArguments(directory.path, origin))
        #expect(again.status == 0 && origin.totalRequests - asked == needed)
    }

    @Test func aServerKilledWhilePreparingAPackLeavesWholeImagesAndFinishesIt() throws {
        let origin = try TestImageOrigin()
        origin.setDefault(.slow(.milliseconds(40)))
        let directory = try TemporaryDirectory(prefix: "pack-crash")
        try SharedCatalog.copy(into: directory.path)
        let root = PackageRoot.path
        let arguments = [
            "--data-dir", directory.path, "--source-dir", root + "/Data", "--openapi", root + "/openapi.yaml", "--web-dir", root + "/Web",
            "--image-origin", origin.url,
        ]
        let target = "/images/pack?south=\(Self.box.south)&west=\(Self.box.west)&north=\(Self.box.north)&east=\(Self.box.east)"
        var server = try ServerProcess(arguments: arguments)
        #expect(try RawHTTPClient(port: server.port).request("GET", target).status == 202)
        try Self.waitForRequests(origin, Self.killAfter)
        server.kill9()

        let needed = try Self.requestsNeeded(keeping: Self.checkCopy(directory.path))
        let photos = try Self.photosInBox()
        #expect(needed > 0)
        origin.setDefault(.jpeg)
        let asked = origin.totalRequests
        server = try ServerProcess(arguments: arguments)
        let response = try PackRoutesTests.ready(try RawHTTPClient(port: server.port), target)
        #expect(response.status == 200)
        let members = try TarArchive.members(of: response.body)
        #expect(members.count == photos.count + 1)
        for member in members.dropFirst() {
            #expect(throws: Never.self, "\(member.name)") { try JPEGImage.check(member.content) }
        }
        #expect(origin.totalRequests - asked == needed, "only what was not kept is fetched again")
        server.stop()
        #expect(try Self.requestsNeeded(keeping: Self.checkCopy(directory.path)) == 0)
    }
}
