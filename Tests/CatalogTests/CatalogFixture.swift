import Catalog
import Foundation
import Gzip
import TestSupport

/// The real catalog, built once per test run from the repository's `Data/` into a
/// temporary directory, with an independent view of the same source file to check
/// answers against.
enum CatalogFixture {
    static let sourceDirectory = PackageRoot.path + "/Data"

    static let locationsPath = (sourceDirectory as NSString).appendingPathComponent("oldnyc-locations.jsonl.gz")
    static let boroughsPath = (sourceDirectory as NSString).appendingPathComponent("boroughs.geojson")

    /// Built lazily (and once) on first use; Swift initializes static lets thread-safely.
    /// The catalog is the one every test of the process shares.
    static let shared: Result<Shared, any Error> = Result {
        let catalog = try SharedCatalog.catalog()
        return Shared(catalog: catalog, oracle: try Oracle(path: locationsPath, catalog: catalog))
    }

    struct Shared: Sendable {
        let catalog: PhotoCatalog
        let oracle: Oracle
    }

    static func load() throws -> Shared {
        try shared.get()
    }

    /// One directory per test process holding every test's directory, removed when the process exits.
    private static let root: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-tests-\(getpid())").path
        atexit {
            try? FileManager.default.removeItem(atPath: CatalogFixture.root)  // Best effort at exit: nothing left to report to.
        }
        return path
    }()

    /// A fresh, empty directory of its own.
    static func temporaryDirectory() throws -> String {
        let path = (root as NSString).appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The first `count` lines of the real locations file, decompressing no more than needed.
    static func sourceLines(_ count: Int) throws -> [String] {
        let reader = try GzipFileReader(path: locationsPath)
        var text: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while text.count(where: { $0 == UInt8(ascii: "\n") }) < count {
            let read = try chunk.withUnsafeMutableBytes { try reader.read(into: $0) }
            guard read > 0 else { break }
            text += chunk[0..<read]
        }
        return text.split(separator: UInt8(ascii: "\n")).prefix(count).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Every line of the real locations file.
    static func allSourceLines() throws -> [String] {
        var lines: [String] = []
        try GzipFileReader(path: locationsPath).forEachLine { line, _ in lines.append(String(decoding: line, as: UTF8.self)) }
        return lines
    }

    /// A source directory holding `lines` as the locations file and the real boroughs.
    static func sourceDirectory(lines: [String]) throws -> String {
        let directory = try temporaryDirectory()
        let text = lines.joined(separator: "\n") + "\n"
        let compressed = try Gzip.compress(Array(text.utf8))
        try Data(compressed).write(to: URL(fileURLWithPath: (directory as NSString).appendingPathComponent("oldnyc-locations.jsonl.gz")))
        try FileManager.default.copyItem(atPath: boroughsPath, toPath: (directory as NSString).appendingPathComponent("boroughs.geojson"))
        return directory
    }
}
