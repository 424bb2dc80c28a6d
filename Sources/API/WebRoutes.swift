import Catalog
import Foundation
import HTTPServer
import WebAssets

/// The web pages: the map at `/` and the API reference at `/docs`, with their scripts,
/// styles and vendored libraries, from the web folder (`WebAssets`); and two files made
/// at start beside them: the boroughs' outlines, the map's base layer, from the source
/// folder's GeoJSON, and the map's settings.
struct WebRoutes {
    /// Where the map reads the five boroughs' outlines.
    static let boroughsPath = "/data/boroughs.geojson"
    /// Where the map reads its settings: `{"tiles": null}`, or the tile server's URL
    /// template and the attribution its data needs.
    static let settingsPath = "/app/settings.json"
    /// OpenStreetMap's data is under the ODbL, whose attribution any map of it shows
    /// (https://osmfoundation.org/wiki/Licence/Attribution_Guidelines).
    static let tileAttribution =
        #"Map data &copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors"#

    let assets: WebAssets
    /// The `Content-Security-Policy` of every page and file (`contentSecurityPolicy(tiles:)`).
    let policy: String

    init(configuration: ApplicationConfiguration) throws {
        let boroughsFile = configuration.sourceDirectory + "/" + CatalogStore.boroughsFileName
        guard let boroughs = FileManager.default.contents(atPath: boroughsFile) else {
            throw ApplicationError.missingFile(path: boroughsFile, purpose: "the boroughs' outlines drawn by the map")
        }
        policy = Self.contentSecurityPolicy(tiles: configuration.mapTiles)
        assets = try WebAssets(
            folder: configuration.webDirectory,
            adding: [
                WebAsset(path: Self.boroughsPath, contentType: "application/geo+json", bytes: Array(boroughs)),
                WebAsset(
                    path: Self.settingsPath, contentType: HTTPResponse.jsonContentType,
                    bytes: Self.settings(tiles: configuration.mapTiles)),
            ])
    }

    func register(in router: inout Router) {
        assets.register(in: &router, adding: [("Content-Security-Policy", policy)])
    }

    /// What the pages may load and run (CSP Level 3, https://www.w3.org/TR/CSP3/): only
    /// this origin's files, scripts included (no inline script, no `eval`); images from
    /// this origin (the photographs too: `GET /photos/{photoID}/image`), the tile server
    /// `tiles` names, and `data:`/`blob:` URLs; no plugins, no `<base>`, forms sent only
    /// here, and no page of another origin may frame these (clickjacking). So a script
    /// injected into a page, or one from another origin, never runs, and nothing a page
    /// holds (the bearer token) leaves for a host not listed here.
    static func contentSecurityPolicy(tiles: String?) -> String {
        let images = ["'self'", "data:", "blob:"] + (tiles.map { [tileOrigin(of: $0)] } ?? [])
        return [
            "default-src 'self'", "img-src " + images.joined(separator: " "), "object-src 'none'", "base-uri 'none'",
            "form-action 'self'", "frame-ancestors 'none'",
        ].joined(separator: "; ")
    }

    /// The origin of a tile URL template (`ServeCommand` checked its form): its scheme,
    /// host and port; a template in the host's first label (`{s}.tile.example`, Leaflet's
    /// subdomains) becomes CSP's wildcard (`*.tile.example`).
    static func tileOrigin(of template: String) -> String {
        guard let schemeEnd = template.range(of: "://") else { return template }
        let rest = template[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        var labels = authority.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if let first = labels.first, first.contains("{") { labels[0] = "*" }
        return template[..<schemeEnd.upperBound] + labels.joined(separator: ".")
    }

    /// The map's settings, as JSON.
    static func settings(tiles: String?) -> [UInt8] {
        var json = JSONWriter()
        json.beginObject()
        json.key("tiles")
        if let tiles {
            json.beginObject()
            json.key("url")
            json.string(tiles)
            json.key("attribution")
            json.string(tileAttribution)
            json.endObject()
        } else {
            json.null()
        }
        json.endObject()
        return json.bytes
    }
}
