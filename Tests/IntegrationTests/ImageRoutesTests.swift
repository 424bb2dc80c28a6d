import API
import Catalog
import Dispatch
import Foundation
import Images
import Synchronization
import Testing
import TestSupport

/// `GET /photos/{photoID}/image` over real sockets, the application fetching from a local
/// origin the test starts: the photo, its thumbnail, the copy's answers (ETag, 304, HEAD,
/// ranges), one source request for many at once, and every way a source can fail.
@Suite struct ImageRoutesTests {
    /// An application whose images come from `origin`, its sources given `timeout`.
    static func application(_ origin: TestImageOrigin, timeout: Duration = .seconds(8)) throws -> TestApplication {
        try TestApplication { configuration in
            configuration.imageOrigin = ImageOrigin(origin.url)
            configuration.imageSourceTimeout = timeout
        }
    }

    /// The first photo whose URLs match `condition`.
    static func photo(where condition: (CatalogPhoto) -> Bool) throws -> CatalogPhoto {
        try #require(try SharedCatalog.catalog().photos.first(where: condition))
    }

    /// A photo of oldnyc-assets, with a thumbnail of its own.
    static func plainPhoto() throws -> CatalogPhoto {
        try photo { $0.photoURL.contains("oldnyc-assets") }
    }

    /// A photo of images.nypl.org, whose thumbnail URL is its full image.
    static func photoWithoutThumbnail() throws -> CatalogPhoto {
        try photo { $0.thumbnailURL == $0.photoURL }
    }

    /// The origin path of a source URL (its path and query).
    static func originPath(_ url: String) -> String {
        let afterScheme = url[url.firstRange(of: "://")!.upperBound...]
        return String(afterScheme[afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" })!...])
    }

    @Test func thePhotoIsTheSourcesImageKeptAndServedFromTheCopy() throws {
        let origin = try TestImageOrigin()
        let app = try Self.application(origin)
        let photo = try Self.plainPhoto()
        let client = try app.connect()
        let path = "/photos/\(photo.photoID)/image"
        let first = try client.request("GET", path)
        #expect(first.status == 200)
        #expect(first.header("Content-Type") == "image/jpeg")
        #expect(first.body == TestImageOrigin.full)
        #expect(first.header("Cache-Control") == "public, max-age=86400")
        let etag = try #require(first.header("ETag"))
        let again = try client.request("GET", path)
        #expect(again.body == TestImageOrigin.full && again.header("ETag") == etag)
        #expect(origin.requests(for: Self.originPath(photo.photoURL)) == 1)
        #expect(app.application.images.counters.hits == 1 && app.application.images.counters.misses == 1)

        let head = try client.request("HEAD", path)
        #expect(head.status == 200 && head.header("Content-Length") == "\(TestImageOrigin.full.count)" && head.body.isEmpty)
        let revalidated = try client.request("GET", path, headers: [("If-None-Match", etag)])
        #expect(revalidated.status == 304 && revalidated.header("Cache-Control") == "public, max-age=86400")
        let range = try client.request("GET", path, headers: [("Range", "bytes=100-")])
        #expect(range.status == 206 && range.body == Array(TestImageOrigin.full[100...]))
        let beyond = try client.request("GET", path, headers: [("Range", "bytes=\(TestImageOrigin.full.count)-")])
        #expect(beyond.status == 416 && beyond.header("Content-Type") == "application/problem+json")
    }

    @Test func theThumbnailIsTheSourcesOwnOrMadeFromTheFullImage() throws {
        let origin = try TestImageOrigin()
        let app = try Self.application(origin)
        let client = try app.connect()
        let plain = try Self.plainPhoto()
        #expect(try client.request("GET", "/photos/\(plain.photoID)/image?size=thumb").body == TestImageOrigin.thumbnail)
        // images.nypl.org's "thumbnail" is its full image: the server makes one, and asks once.
        let nypl = try Self.photoWithoutThumbnail()
        let made = try client.request("GET", "/photos/\(nypl.photoID)/image?size=thumb")
        #expect(made.status == 200)
        #expect(ImageSize.thumbnailSides.contains(try JPEGImage.check(made.body).longestSide))
        #expect(try client.request("GET", "/photos/\(nypl.photoID)/image?size=600").body == TestImageOrigin.wide)
        #expect(origin.requests(for: Self.originPath(nypl.photoURL)) == 1)
    }

    @Test func manyRequestsAtOnceForAnImageNotKeptAskTheSourceOnce() throws {
        let origin = try TestImageOrigin()
        origin.setDefault(.slow(.milliseconds(300)))
        let app = try Self.application(origin)
        let photo = try Self.plainPhoto()
        let bodies = Mutex<[[UInt8]]>([])
        DispatchQueue.concurrentPerform(iterations: 24) { _ in
            let body = (try? app.connect().request("GET", "/photos/\(photo.photoID)/image").body) ?? []
            bodies.withLock { $0.append(body) }
        }
        #expect(bodies.withLock { $0 }.allSatisfy { $0 == TestImageOrigin.full })
        #expect(origin.requests(for: Self.originPath(photo.photoURL)) == 1)
    }

    @Test(arguments: [
        (TestImageOrigin.Behaviour.status(500, retryAfter: nil), 502), (.status(404, retryAfter: nil), 502), (.html, 502),
        (.oversized, 502), (.hang, 504),
    ])
    func aFailingSourceIsAProblemNeverAnImage(_ behaviour: TestImageOrigin.Behaviour, _ status: Int) throws {
        let origin = try TestImageOrigin()
        origin.setDefault(behaviour)
        let app = try Self.application(origin, timeout: .seconds(1))
        let client = try app.connect()
        let response = try client.request("GET", "/photos/\(try Self.plainPhoto().photoID)/image")
        #expect(response.status == status)
        #expect(response.header("Content-Type") == "application/problem+json")
        #expect(response.header("Cache-Control") == nil, "a failure is not kept by caches")
        #expect(app.application.images.keptCount == 0)
        #expect(try client.request("GET", "/healthz").status == 200, "the connection and the server go on")
        let counters = app.application.images.counters
        #expect((status == 504 ? counters.gatewayTimeoutFailures : counters.badGatewayFailures) == 1)
    }

    @Test func aKeptImageIsServedWhenTheSourceIsGone() throws {
        let origin = try TestImageOrigin()
        let app = try Self.application(origin)
        let path = "/photos/\(try Self.plainPhoto().photoID)/image"
        #expect(try app.connect().request("GET", path).status == 200)
        origin.shutdown()
        #expect(try app.connect().request("GET", path).body == TestImageOrigin.full)
    }

    /// A copy that cannot write (here its temporary folder is a file, as good as a full
    /// disk to `open(2)`): the image is served from memory, not kept, and the server
    /// goes on.
    @Test func anImageThatCannotBeKeptIsServedAllTheSame() throws {
        let origin = try TestImageOrigin()
        let app = try Self.application(origin)
        let temporary = app.dataDirectory.path + "/images/tmp"
        try FileManager.default.removeItem(atPath: temporary)
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: temporary))
        let photo = try Self.plainPhoto()
        let client = try app.connect()
        for _ in 0..<2 {
            let response = try client.request("GET", "/photos/\(photo.photoID)/image")
            #expect(response.status == 200 && response.body == TestImageOrigin.full)
            #expect(response.header("ETag") == ImageCopy.etag(of: TestImageOrigin.full))
        }
        #expect(app.application.images.keptCount == 0)
        #expect(origin.requests(for: Self.originPath(photo.photoURL)) == 2, "not kept, so fetched again")
        #expect(try client.request("GET", "/photos/\(photo.photoID)").status == 200)
    }

    @Test(arguments: [("/photos/no-such-photo/image", 404, "no-such-photo"), ("/photos/729683f-a/image?size=big", 400, "size")])
    func aBadRequestIsAProblemNamingWhatIsWrong(_ target: String, _ status: Int, _ named: String) throws {
        let origin = try TestImageOrigin()
        let app = try Self.application(origin)
        let response = try app.connect().request("GET", target)
        #expect(response.status == status)
        #expect(response.problemDetail.contains(named))
        #expect(origin.totalRequests == 0)
    }

    @Test func everyCatalogAnswerGivesThePhotosImageURL() throws {
        let origin = try TestImageOrigin()
        let app = try Self.application(origin)
        let photo = try Self.plainPhoto()
        let body = try app.connect().request("GET", "/photos/\(photo.photoID)").object()
        #expect(body["imageURL"] as? String == "/photos/\(photo.photoID)/image")
        let nearby = try app.connect().request("GET", "/nearby?lat=40.7306&lon=-73.9866&limit=1&photos=1").object()
        let first = try #require(((nearby["locations"] as? [[String: Any]])?.first?["photos"] as? [[String: Any]])?.first)
        #expect(first["imageURL"] as? String == "/photos/\(first["photoID"] as? String ?? "")/image")
    }
}
