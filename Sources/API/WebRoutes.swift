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

    init(configuration: ApplicationConfiguration) throws {
        let boroughsFile = configuration.sourceDirectory + "/" + CatalogStore.boroughsFileName
        guard let boroughs = FileManager.default.contents(atPath: boroughsFile) else {
            throw ApplicationError.missingFile(path: boroughsFile, purpose: "the boroughs' outlines drawn by the map")
        }
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
        assets.register(in: &router)
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
