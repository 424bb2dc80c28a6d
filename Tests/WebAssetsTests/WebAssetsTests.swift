import Foundation
import Gzip
import HTTPServer
import Testing
import TestSupport
import WebAssets

/// The web folder through the server's whole pipeline (`InMemoryHTTPClient`): where each
/// file is served, with which media type, entity tag, gzip and cache rule.
@Suite struct WebAssetsTests {
    @Test(arguments: [
        ("/", "index.html", "text/html; charset=utf-8"),
        ("/docs", "docs.html", "text/html; charset=utf-8"),
        ("/app/map.js", "app/map.js", "text/javascript; charset=utf-8"),
        ("/app/map.css", "app/map.css", "text/css; charset=utf-8"),
        ("/app/icon.svg", "app/icon.svg", "image/svg+xml"),
        ("/app/settings.json", "app/settings.json", "application/json; charset=utf-8"),
        ("/app/boroughs.geojson", "app/boroughs.geojson", "application/geo+json"),
        ("/app/spec.yaml", "app/spec.yaml", "application/yaml; charset=utf-8"),
        ("/app/notes.txt", "app/notes.txt", "text/plain; charset=utf-8"),
        ("/app/map.js.map", "app/map.js.map", "application/json; charset=utf-8"),
        ("/app/pin.png", "app/pin.png", "image/png"),
        ("/app/favicon.ico", "app/favicon.ico", "image/vnd.microsoft.icon"),
        ("/vendor/SHA256SUMS", "vendor/SHA256SUMS", "text/plain; charset=utf-8"),
        ("/vendor/lib-1.0/lib.js", "vendor/lib-1.0/lib.js", "text/javascript; charset=utf-8"),
        ("/vendor/lib-1.0/LICENSE", "vendor/lib-1.0/LICENSE", "text/plain; charset=utf-8"),
    ])
    func eachFileIsServedAsItIsWithItsMediaType(_ path: String, _ file: String, _ contentType: String) throws {
        let fixture = try WebFolderFixture()
        let response = try fixture.client().request("GET", path)
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == contentType)
        #expect(response.bodyText == WebFolderFixture.files[file])
        #expect(response.header("ETag") == HTTPResponse.strongETag(for: Array(WebFolderFixture.files[file]!.utf8)))
    }

    @Test func everyFileHasOneRouteAndHiddenOnesNone() throws {
        let fixture = try WebFolderFixture()
        let visible = WebFolderFixture.files.keys.filter { !$0.split(separator: "/").contains { $0.hasPrefix(".") } }
        #expect(fixture.assets.assets.count == visible.count)
        #expect(fixture.assets.assets.map(\.path) == fixture.assets.assets.map(\.path).sorted())
    }

    @Test(arguments: [
        "/index.html", "/docs.html", "/app", "/app/", "/app/missing.js", "/.hidden", "/app/.cache/x.js",
        "/app/../index.html", "/../index.html", "/vendor/lib-1.0/../../docs.html", "/app/./map.js",
        "/app/%2e%2e/index.html", "//app/map.js", "/APP/MAP.JS",
    ])
    func aPathThatIsNotAFilesIsNotFound(_ path: String) throws {
        let response = try WebFolderFixture().client().request("GET", path)
        #expect(response.status == 404, "\(path)")
        #expect(response.header("Content-Type") == "application/problem+json")
    }

    @Test func aMatchingEntityTagIsA304WithoutBody() throws {
        let client = try WebFolderFixture().client()
        let first = try client.request("GET", "/app/map.css")
        let etag = try #require(first.header("ETag"))
        let again = try client.request("GET", "/app/map.css", headers: [("If-None-Match", etag)])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        #expect(again.header("ETag") == etag)
        let changed = try client.request("GET", "/app/map.css", headers: [("If-None-Match", "\"other\"")])
        #expect(changed.status == 200 && changed.bodyText == WebFolderFixture.files["app/map.css"])
    }

    @Test func headAnswersTheGetsHeadWithoutBody() throws {
        let client = try WebFolderFixture().client()
        let get = try client.request("GET", "/app/map.js")
        let head = try client.request("HEAD", "/app/map.js")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Length") == String(get.body.count))
        #expect(head.header("ETag") == get.header("ETag"))
        #expect(head.header("Content-Type") == get.header("Content-Type"))
    }

    /// The gzip body is the copy made at load, which is what compressing per request gives.
    @Test func gzipServesTheCopyMadeAtLoad() throws {
        let fixture = try WebFolderFixture()
        let response = try fixture.client().request("GET", "/app/map.js", headers: [("Accept-Encoding", "gzip")])
        #expect(response.status == 200)
        #expect(response.header("Content-Encoding") == "gzip")
        #expect(response.header("Vary") == "Accept-Encoding")
        #expect(try gunzip(response.body) == Array(WebFolderFixture.script.utf8))
        #expect(response.body == (try Gzip.compress(Array(WebFolderFixture.script.utf8))))
        let image = try fixture.client().request(
            "GET", "/app/pin.png", headers: [("Accept-Encoding", "gzip")])
        #expect(image.header("Content-Encoding") == nil, "an image is sent as it is")
    }

    @Test(arguments: [
        ("/", "public, max-age=300"),
        ("/app/map.js", "public, max-age=300"),
        ("/vendor/SHA256SUMS", "public, max-age=300"),
        ("/vendor/lib-1.0/lib.js", "public, max-age=31536000, immutable"),
        ("/vendor/lib-1.0/LICENSE", "public, max-age=31536000, immutable"),
    ])
    func pagesAreKeptFiveMinutesAndVersionedFilesAYear(_ path: String, _ cacheControl: String) throws {
        let client = try WebFolderFixture().client()
        let response = try client.request("GET", path)
        #expect(response.headerValues("Cache-Control") == [cacheControl])
        let revalidated = try client.request("GET", path, headers: [("If-None-Match", response.header("ETag")!)])
        #expect(revalidated.status == 304 && revalidated.headerValues("Cache-Control") == [cacheControl])
        let head = try client.request("HEAD", path)
        #expect(head.headerValues("Cache-Control") == [cacheControl])
        let signedIn = try client.request("GET", path, headers: [("Authorization", "Bearer x")])
        #expect(signedIn.headerValues("Cache-Control") == ["no-store"], "an answer to a token is never stored")
    }

    @Test func onlyGetAndHeadAreServed() throws {
        let response = try WebFolderFixture().client().request("POST", "/app/map.js", body: [])
        #expect(response.status == 405)
        #expect(response.header("Allow") == "GET, HEAD, OPTIONS")
    }

    @Test func addedFilesAreServedBesideTheFolders() throws {
        let fixture = try WebFolderFixture()
        let made = try WebAsset(path: "/data/made.json", contentType: "application/json; charset=utf-8", bytes: Array("[]".utf8))
        let assets = try WebAssets(folder: fixture.folder.path, adding: [made])
        var router = Router()
        assets.register(in: &router)
        let response = try InMemoryHTTPClient(router: router).request("GET", "/data/made.json")
        #expect(response.status == 200 && response.bodyText == "[]")
        #expect(throws: WebAssetsError.duplicatePath("/app/map.js")) {
            try WebAssets(
                folder: fixture.folder.path,
                adding: [try WebAsset(path: "/app/map.js", contentType: "text/javascript; charset=utf-8", bytes: [])])
        }
    }

    @Test func aFolderThatCannotBeServedPlainlyStopsTheLoad() throws {
        let folder = try WebFolderFixture().folder
        #expect(throws: WebAssetsError.missingFolder(path: folder.file("none"))) {
            try WebAssets(folder: folder.file("none"))
        }
        #expect(throws: WebAssetsError.missingFolder(path: folder.file("index.html"))) {
            try WebAssets(folder: folder.file("index.html"))
        }
    }

    @Test func aFileOfAnUnknownKindStopsTheLoad() throws {
        let fixture = try WebFolderFixture()
        let file = try fixture.write("app/run.exe", "MZ")
        #expect(throws: WebAssetsError.unknownFileType(path: file)) { try WebAssets(folder: fixture.folder.path) }
    }

    @Test(arguments: ["app/a b.js", "app/ä.js", "app/x?.js", "a%2e.js"])
    func aNameOutsideThePlainCharactersStopsTheLoad(_ name: String) throws {
        let fixture = try WebFolderFixture()
        let file = try fixture.write(name, "x")
        #expect(throws: WebAssetsError.unplainName(path: file)) { try WebAssets(folder: fixture.folder.path) }
    }

    @Test func twoFilesServedAtOnePathStopTheLoad() throws {
        let fixture = try WebFolderFixture()
        try fixture.write("docs", "text")
        #expect(throws: WebAssetsError.duplicatePath("/docs")) { try WebAssets(folder: fixture.folder.path) }
    }
}
