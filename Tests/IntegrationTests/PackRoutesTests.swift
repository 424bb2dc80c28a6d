import API
import Catalog
import Foundation
import Images
import Testing
import TestSupport

/// `GET /images/pack` over real sockets: `202` while the server fetches, then the ustar
/// archive (index first, members in photoID order, each the image the image route
/// serves), the same bytes every time, resumable with `Range` and `If-Range`, and what
/// it refuses.
@Suite struct PackRoutesTests {
    /// Asks for `target` until it is not `202` (each `202` asks to come back).
    static func ready(_ client: RawHTTPClient, _ target: String) throws -> RawHTTPClient.Response {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let response = try client.request("GET", target)
            guard response.status == 202 else { return response }
            #expect(response.header("Cache-Control") == "no-store")
            #expect(Int(response.header("Retry-After") ?? "") ?? 0 >= 1)
            let progress = try response.object()
            #expect(progress["photoCount"] is Int && progress["readyCount"] is Int && progress["failedCount"] is Int)
            usleep(100_000)
        }
        throw TarArchive.ReadError.malformed("the pack was not ready within a minute")
    }

    /// Photos of each kind of source, in no particular order.
    static func someIDs() throws -> [String] {
        let photos = try SharedCatalog.catalog().photos
        let plain = photos.filter { $0.photoURL.contains("oldnyc-assets") }.prefix(4)
        let rotated = photos.filter { $0.photoURL.contains("rotated-assets") }.prefix(2)
        let nypl = photos.filter { $0.photoURL == $0.thumbnailURL }.prefix(2)
        return (plain + rotated + nypl).map(\.photoID).reversed()
    }

    @Test func aListOfIDsIsAnArchiveOfTheirImagesInPhotoIDOrder() throws {
        let origin = try TestImageOrigin()
        let app = try ImageRoutesTests.application(origin)
        let client = try app.connect()
        let ids = try Self.someIDs()
        let target = "/images/pack?ids=" + (ids + ["no-such-photo"]).joined(separator: ",")
        let first = try client.request("GET", target)
        #expect(first.status == 202)
        let response = try Self.ready(client, target)
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/x-tar")
        #expect(response.header("Accept-Ranges") == "bytes")
        let members = try TarArchive.members(of: response.body)
        let sorted = ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        #expect(members.map(\.name) == ["index.json"] + sorted.map { "\($0).jpg" })
        let index = try #require(JSONSerialization.jsonObject(with: Data(members[0].content)) as? [String: Any])
        #expect(index["size"] as? String == "thumb")
        #expect(index["missing"] as? [String] == [], "an unknown ID is left out and not listed")
        let listed = try #require(index["photos"] as? [[String: Any]])
        #expect(listed.map { $0["photoID"] as? String } == sorted)
        for (entry, member) in zip(listed, members.dropFirst()) {
            let image = try client.request("GET", "/photos/\(entry["photoID"] as? String ?? "")/image?size=thumb")
            #expect(member.content == image.body)
            let info = try JPEGImage.check(member.content)
            #expect(entry["width"] as? Int == info.width && entry["height"] as? Int == info.height)
            #expect(entry["bytes"] as? Int == member.content.count && entry["file"] as? String == member.name)
        }
    }

    @Test func theSameRequestGivesTheSameBytesAndACutDownloadResumes() throws {
        let origin = try TestImageOrigin()
        let app = try ImageRoutesTests.application(origin)
        let client = try app.connect()
        let target = "/images/pack?size=600&ids=" + (try Self.someIDs()).joined(separator: ",")
        let whole = try Self.ready(client, target)
        let etag = try #require(whole.header("ETag"))
        let again = try client.request("GET", target)
        #expect(again.body == whole.body && again.header("ETag") == etag)
        let cut = whole.body.count / 3
        let resumed = try client.request("GET", target, headers: [("Range", "bytes=\(cut)-"), ("If-Range", etag)])
        #expect(resumed.status == 206)
        #expect(resumed.body == Array(whole.body[cut...]))
        #expect(resumed.header("Content-Range") == "bytes \(cut)-\(whole.body.count - 1)/\(whole.body.count)")
        let changed = try client.request("GET", target, headers: [("Range", "bytes=\(cut)-"), ("If-Range", "\"another\"")])
        #expect(changed.status == 200 && changed.body == whole.body)
        #expect(try client.request("GET", target, headers: [("If-None-Match", etag)]).status == 304)
        #expect(whole.header("Cache-Control")?.hasPrefix("public, max-age=") == true)
    }

    @Test func aWholePackIsAssembledOnceAndThenServedFromItsFile() throws {
        let origin = try TestImageOrigin()
        let app = try ImageRoutesTests.application(origin)
        let client = try app.connect()
        let ids = try Self.someIDs()
        let target = "/images/pack?ids=" + ids.joined(separator: ",")
        let whole = try Self.ready(client, target)
        let etag = try #require(whole.header("ETag"))
        let packs = app.dataDirectory.file(ApplicationConfiguration.packsFolderName)
        let file = packs + "/" + etag.filter { $0 != "\"" } + ".tar"
        let deadline = ContinuousClock.now + .seconds(30)
        while !FileManager.default.fileExists(atPath: file), ContinuousClock.now < deadline { usleep(20_000) }
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: file))) == whole.body)
        // The kept images gone from the disk: only the assembled file can still give the pack.
        let images = app.dataDirectory.file(ApplicationConfiguration.imagesFolderName)
        for folder in try FileManager.default.contentsOfDirectory(atPath: images) where folder.count == 2 {
            for name in try FileManager.default.contentsOfDirectory(atPath: images + "/" + folder) {
                try FileManager.default.removeItem(atPath: images + "/" + folder + "/" + name)
            }
        }
        // Twice: from a worker's look-up, then on the event loop by the request it answered.
        for _ in 0..<2 {
            let again = try client.request("GET", target)
            #expect(again.status == 200 && again.header("ETag") == etag)
            #expect(again.body == whole.body)
        }
        let cut = whole.body.count / 2
        let resumed = try client.request("GET", target, headers: [("Range", "bytes=\(cut)-"), ("If-Range", etag)])
        #expect(resumed.status == 206 && resumed.body == Array(whole.body[cut...]))
        #expect(try client.request("HEAD", target).header("Content-Length") == String(whole.body.count))
    }

    @Test func aPhotoWhoseSourceFailsThreeTimesIsListedAsMissing() throws {
        let origin = try TestImageOrigin()
        let app = try ImageRoutesTests.application(origin)
        let photos = try SharedCatalog.catalog().photos.filter { $0.photoURL.contains("oldnyc-assets") }.prefix(3)
        let failing = photos[photos.startIndex]
        origin.set(.status(503, retryAfter: nil), for: ImageRoutesTests.originPath(failing.thumbnailURL))
        origin.set(.status(503, retryAfter: nil), for: ImageRoutesTests.originPath(failing.photoURL))
        let client = try app.connect()
        let response = try Self.ready(client, "/images/pack?ids=" + photos.map(\.photoID).joined(separator: ","))
        let members = try TarArchive.members(of: response.body)
        let index = try #require(JSONSerialization.jsonObject(with: Data(members[0].content)) as? [String: Any])
        #expect(index["missing"] as? [String] == [failing.photoID])
        #expect(!members.contains { $0.name == failing.photoID + ".jpg" })
        #expect(members.count == photos.count)
        // Three tries of its own thumbnail, each then made from the full image, also failing.
        #expect(origin.requests(for: ImageRoutesTests.originPath(failing.thumbnailURL)) == 3)
    }

    @Test(arguments: [
        ("/images/pack", "ids"),
        ("/images/pack?ids=a&south=40.7&west=-74&north=40.71&east=-73.99", "ids"),
        ("/images/pack?ids=a&size=huge", "size"),
        ("/images/pack?ids=a,,b", "ids"),
        ("/images/pack?south=40.7&west=-74&north=40.71", "east"),
        ("/images/pack?south=40.5&west=-74.3&north=40.95&east=-73.7&size=600", "south"),
        ("/images/pack?south=40.5&west=-74.3&north=40.95&east=-73.7", "south"),
    ])
    func whatAPackCannotBeIsA400NamingIt(_ target: String, _ named: String) throws {
        let origin = try TestImageOrigin()
        let app = try ImageRoutesTests.application(origin)
        let response = try app.connect().request("GET", target)
        #expect(response.status == 400)
        #expect(response.problemDetail.contains(named) || ((try? response.object())?["title"] as? String ?? "").contains(named))
        #expect(origin.totalRequests == 0, "nothing fetched for a refused pack")
    }

    @Test func tooManyIDsAreA400() throws {
        let origin = try TestImageOrigin()
        let app = try ImageRoutesTests.application(origin)
        let ids = (0...PackRoutesLimits.maximumIDs).map { "id\($0)" }.joined(separator: ",")
        let response = try app.connect().request("GET", "/images/pack?ids=" + ids)
        #expect(response.status == 400 && response.problemDetail.contains("ids"))
    }
}

/// The pack's limits, as the contract states them.
enum PackRoutesLimits {
    static let maximumIDs = 500
}
