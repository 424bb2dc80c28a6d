import Foundation
import Testing
import TestSupport

/// The web pages as the application serves them: the map and the API reference, the
/// files the application adds beside the web folder's, and every local file a page or
/// script names is there.
@Suite struct WebPagesTests {
    @Test(arguments: [("/", "<title>PAST NYC: a map of old New York</title>"), ("/docs", "<title>PAST NYC API reference</title>")])
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
        for page in ["/", "/docs"] {
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

    /// The first capture group of every match of `pattern` in `text`.
    static func matches(of pattern: String, in text: String) throws -> [String] {
        let expression = try NSRegularExpression(pattern: pattern)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }
}
