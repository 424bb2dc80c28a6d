import Foundation
import Testing
import TestSupport

@testable import API

/// The web pages as the application serves them: the map, the API reference and the
/// moderation page, the files the application adds beside the web folder's, and every
/// local file a page or script names is there.
@Suite struct WebPagesTests {
    @Test(arguments: [
        ("/", "<title>PAST NYC: a map of old New York</title>"), ("/docs", "<title>PAST NYC API reference</title>"),
        ("/moderation", "<title>PAST NYC: moderation</title>"),
    ])
    func thePagesAreHTML(_ path: String, _ title: String) throws {
        let response = try PipelineApplication.client().request("GET", path)
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "text/html; charset=utf-8")
        #expect(response.bodyText.contains(title))
    }

    @Test func theBoroughsAreTheSourceFoldersGeoJSON() throws {
        let response = try PipelineApplication.client().request("GET", "/data/boroughs.geojson")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/geo+json")
        let source = try Data(contentsOf: URL(fileURLWithPath: PackageRoot.path + "/Data/boroughs.geojson"))
        #expect(response.body == Array(source))
    }

    /// Started without `--map-tiles`, the map draws no tiles: it asks no other server.
    @Test func withoutTilesTheSettingsSayNone() throws {
        let response = try PipelineApplication.client().request("GET", "/app/settings.json")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json; charset=utf-8")
        #expect(response.bodyText == #"{"tiles":null}"#)
    }

    /// Every `src` and `href` of the pages and every module a script imports is served:
    /// a renamed or missing file fails here before it fails in a browser.
    @Test func everyLocalFileThePagesNameIsServed() throws {
        let client = try PipelineApplication.client()
        var named: Set<String> = []
        for page in ["/", "/docs", "/moderation"] {
            let html = try client.request("GET", page).bodyText
            named.formUnion(try Self.matches(of: ##"(?:src|href)="(/[^"#?]*)""##, in: html))
        }
        let scripts = try FileManager.default.contentsOfDirectory(atPath: PackageRoot.path + "/Web/app").filter { $0.hasSuffix(".js") }
        #expect(scripts.count > 5)
        for script in scripts {
            let text = try client.request("GET", "/app/" + script).bodyText
            named.formUnion(try Self.matches(of: #"from '\./([^']+)'"#, in: text).map { "/app/" + $0 })
        }
        #expect(named.contains("/vendor/leaflet-1.9.4/leaflet.js") && named.contains("/app/main.js"))
        for path in named.sorted() {
            #expect(try client.request("GET", path).status == 200, "\(path)")
        }
    }

    /// Every page and file of the web folder, and the two made at start, carry the policy;
    /// the API's answers have no use for one.
    @Test(arguments: ["/", "/docs", "/app/main.js", "/app/map.css", "/vendor/leaflet-1.9.4/leaflet.js", "/app/settings.json",
                      "/data/boroughs.geojson"])
    func everyWebFileCarriesTheContentSecurityPolicy(_ path: String) throws {
        let client = try PipelineApplication.client()
        let response = try client.request("GET", path)
        #expect(response.status == 200)
        #expect(response.header("Content-Security-Policy") == WebRoutes.contentSecurityPolicy(tiles: nil))
        #expect(response.header("X-Content-Type-Options") == "nosniff")
        let etag = try #require(response.header("ETag"))
        let revalidated = try client.request("GET", path, headers: [("If-None-Match", etag)])
        #expect(revalidated.status == 304)
        #expect(revalidated.header("Content-Security-Policy") == WebRoutes.contentSecurityPolicy(tiles: nil))
    }

    @Test func thePolicyAllowsThisOriginThePhotoHostsAndTheTileServerOnly() {
        let directives = Dictionary(
            uniqueKeysWithValues: WebRoutes.contentSecurityPolicy(tiles: "https://{s}.tile.example.org:8443/{z}/{x}/{y}.png")
                .split(separator: ";").map { directive in
                    let words = directive.split(separator: " ").map(String.init)
                    return (words[0], Array(words.dropFirst()))
                })
        #expect(directives["default-src"] == ["'self'"])
        #expect(directives["img-src"] == ["'self'", "data:", "blob:", "https://*.tile.example.org:8443"])
        #expect(directives["object-src"] == ["'none'"])
        #expect(directives["base-uri"] == ["'none'"])
        #expect(directives["form-action"] == ["'self'"])
        #expect(directives["frame-ancestors"] == ["'none'"])
        #expect(directives.count == 6, "no script-src or style-src of their own: default-src 'self' holds, nothing inline")
        #expect(WebRoutes.contentSecurityPolicy(tiles: nil).contains("img-src 'self' data: blob:;"))
    }

    @Test(arguments: [
        ("https://tile.openstreetmap.org/{z}/{x}/{y}.png", "https://tile.openstreetmap.org"),
        ("http://127.0.0.1:8081/{z}/{x}/{y}.png", "http://127.0.0.1:8081"),
        ("https://{s}.tiles.example/{z}/{x}/{y}.png?key=1", "https://*.tiles.example"),
    ])
    func theTileOriginIsTheTemplatesSchemeHostAndPort(_ template: String, _ origin: String) {
        #expect(WebRoutes.tileOrigin(of: template) == origin)
    }

    /// The pages show each photo from this server (so the policy needs no photo host):
    /// every photo's `imageURL` is a path of this origin that the image route answers.
    @Test func everyPhotosImageURLIsThisServersImageRoute() throws {
        let catalog = try SharedCatalog.catalog()
        let router = try PipelineApplication.shared.get().application.router
        for photo in catalog.photos {
            let path = ImageRoutes.path(ofPhoto: photo.photoID)
            guard case .found(_, let parameters, _, _) = router.match(.get, path: path), parameters["photoID"] == photo.photoID else {
                Issue.record("\(path) is not the image route of \(photo.photoID)")
                return
            }
        }
    }

    /// The first capture group of every match of `pattern` in `text`.
    static func matches(of pattern: String, in text: String) throws -> [String] {
        let expression = try NSRegularExpression(pattern: pattern)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }
}
