import Basics
import Crypto
import Foundation

/// The two source files a catalog is built from, and their SHA-256 digests, which
/// tell whether an existing catalog database was built from the same data.
struct SourceFiles: Sendable, Equatable {
    static let locationsFileName = "oldnyc-locations.jsonl.gz"
    static let boroughsFileName = "boroughs.geojson"

    let locationsPath: String
    let boroughsPath: String
    /// Lowercase hex SHA-256 of each file.
    let locationsDigest: String
    let boroughsDigest: String

    init(directory: String) throws {
        locationsPath = (directory as NSString).appendingPathComponent(Self.locationsFileName)
        boroughsPath = (directory as NSString).appendingPathComponent(Self.boroughsFileName)
        locationsDigest = try Self.digest(of: locationsPath)
        boroughsDigest = try Self.digest(of: boroughsPath)
    }

    /// A short tag for the data and what is made of it: it changes whenever either file
    /// does, and with the catalog's format version, which a release that changes what the
    /// catalog answers bumps (so caches in front of the server revalidate to new bodies).
    static func dataVersion(locationsDigest: String, boroughsDigest: String) -> String {
        let digest = SHA256.hash(
            data: Array("\(locationsDigest)\n\(boroughsDigest)\n\(CatalogSchema.formatVersion)".utf8))
        return Hex.string(digest.prefix(10))
    }

    private static func digest(of path: String) throws -> String {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
        } catch {
            throw CatalogError.unreadableFile(path: path, reason: "\(error)")
        }
        return Hex.string(SHA256.hash(data: data))
    }
}
