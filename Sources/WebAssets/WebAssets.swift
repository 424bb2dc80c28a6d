import Foundation
import HTTPServer

/// The web folder (`Web/`: the map at `/`, the API reference at `/docs`, their scripts and
/// styles, the vendored libraries), read whole into memory at start, one literal route
/// per file. A request's path is only ever looked up among these routes, never joined to
/// a folder, so nothing outside the folder can be reached (`/../x` is just an unknown path).
///
/// Where each file is served, relative to the folder:
/// - `index.html` at `/`, and any other `NAME.html` at the top at `/NAME` (the pages);
/// - every other file at `/` + its relative path (`app/map.js` at `/app/map.js`);
/// - files and folders whose name starts with `.` are left out.
///
/// A file inside a folder of `vendor/` (`vendor/leaflet-1.9.4/leaflet.js`) is a
/// vendored library's, in a folder named with its version: its bytes never change under
/// that path, so it answers `WebAsset.immutableCacheControl`. Every other file is a
/// page or goes with one and follows the route's `caching`.
public struct WebAssets: Sendable {
    /// Every file, by path order.
    public let assets: [WebAsset]

    /// What the pages and their files tell caches: they change only with a release, so
    /// the five minutes of the catalog's answers; their strong ETags make asking again a `304`.
    public static let caching = CachePolicy.shared(maxAge: 300)

    /// Reads every file of `folder`, and adds `extras` (files the application makes at start).
    public init(folder: String, adding extras: [WebAsset] = []) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw WebAssetsError.missingFolder(path: folder)
        }
        var byPath: [String: WebAsset] = [:]
        func add(_ asset: WebAsset) throws {
            guard byPath[asset.path] == nil else { throw WebAssetsError.duplicatePath(asset.path) }
            byPath[asset.path] = asset
        }
        for relative in try Self.files(in: folder, under: []) {
            let file = folder + "/" + relative.joined(separator: "/")
            guard let data = FileManager.default.contents(atPath: file) else {
                throw WebAssetsError.unreadableFile(path: file)
            }
            guard let contentType = WebMediaType.of(fileName: relative[relative.count - 1]) else {
                throw WebAssetsError.unknownFileType(path: file)
            }
            try add(
                WebAsset(
                    path: Self.servedPath(of: relative), contentType: contentType, bytes: Array(data),
                    immutable: relative.count >= 3 && relative[0] == "vendor"))
        }
        for asset in extras {
            try add(asset)
        }
        assets = byPath.values.sorted { $0.path < $1.path }
    }

    /// One `GET` route (HEAD included) per file, whose answers carry `fields` too (the
    /// application's `Content-Security-Policy`).
    public func register(in router: inout Router, adding fields: [(String, String)] = []) {
        for asset in assets {
            let response = asset.response(adding: fields)
            router.add(.get, asset.path, caching: Self.caching, .immediate { _ in response })
        }
    }

    /// Where the file at `relative` (its path's components under the folder) is served.
    private static func servedPath(of relative: [String]) -> String {
        if relative.count == 1, relative[0].hasSuffix(".html") {
            let page = String(relative[0].dropLast(".html".count))
            return page == "index" ? "/" : "/" + page
        }
        return "/" + relative.joined(separator: "/")
    }

    /// The files under `folder` + `relative`, as component lists, skipping hidden names.
    private static func files(in folder: String, under relative: [String]) throws -> [[String]] {
        let here = ([folder] + relative).joined(separator: "/")
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: here)
        } catch {
            throw WebAssetsError.unreadableFile(path: here)
        }
        var found: [[String]] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = relative + [name]
            guard name.utf8.allSatisfy(Self.isPlain) else {
                throw WebAssetsError.unplainName(path: ([folder] + path).joined(separator: "/"))
            }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: here + "/" + name, isDirectory: &isFolder) else {
                throw WebAssetsError.unreadableFile(path: here + "/" + name)
            }
            found += isFolder.boolValue ? try files(in: folder, under: path) : [path]
        }
        return found
    }

    private static func isPlain(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "@"),
            UInt8(ascii: "-"):
            true
        default:
            false
        }
    }
}
