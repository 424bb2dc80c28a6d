import Foundation
import HTTPServer
import TestSupport
import WebAssets

/// A web folder of every kind of file, written into a temporary folder, and a client of
/// the routes that `WebAssets` registers for it.
struct WebFolderFixture {
    let folder: TemporaryDirectory
    let assets: WebAssets

    /// Big enough that the encoder gzips it (over `ResponseEncoder.minimumGzipBytes`).
    static let script = "export const streets = [" + String(repeating: "\"Broadway\", ", count: 200) + "];\n"

    /// Relative path → contents.
    static let files: [String: String] = [
        "index.html": "<!doctype html><title>map</title>",
        "docs.html": "<!doctype html><title>docs</title>",
        "app/map.js": script,
        "app/map.css": "body { margin: 0 }",
        "app/icon.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
        "app/settings.json": "{}",
        "app/boroughs.geojson": "{\"type\":\"FeatureCollection\",\"features\":[]}",
        "app/spec.yaml": "openapi: 3.1.0\n",
        "app/notes.txt": "notes",
        "app/map.js.map": "{\"version\":3}",
        "app/pin.png": "\u{89}PNG",
        "app/favicon.ico": "ico",
        "vendor/SHA256SUMS": "0  lib-1.0/lib.js\n",
        "vendor/lib-1.0/lib.js": "window.lib = {};",
        "vendor/lib-1.0/LICENSE": "BSD",
        ".hidden": "secret",
        "app/.cache/x.js": "secret",
    ]

    init() throws {
        folder = try TemporaryDirectory(prefix: "web-assets")
        for (path, text) in Self.files {
            let file = folder.file(path)
            try FileManager.default.createDirectory(
                atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        }
        assets = try WebAssets(folder: folder.path)
    }

    /// Adds a file to the folder (after the load: `assets` stays as it was).
    @discardableResult
    func write(_ relative: String, _ text: String) throws -> String {
        let file = folder.file(relative)
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    func client() -> InMemoryHTTPClient {
        var router = Router()
        assets.register(in: &router)
        return InMemoryHTTPClient(router: router)
    }
}
