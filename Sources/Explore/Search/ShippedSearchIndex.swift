import Catalog
import SQLite

/// The search index of the shipped catalog, read from its database once at start: what
/// the search of every generation is made from (`PhotoSearch(catalog:shipped:)`).
///
/// `Sendable`: immutable once loaded.
public struct ShippedSearchIndex: Sendable {
    /// The postings the catalog build wrote (`SearchIndex`).
    let postings: SearchPostings
    /// Each shipped photo's rank in `photoID` order (code points, i.e. UTF-8 bytes).
    let photoIDRanks: [Int32]

    /// - Parameter databasePath: the catalog database `shipped` was loaded from.
    public init(databasePath: String, shipped: ShippedCatalog) throws {
        postings = try SearchPostings(path: databasePath, photoCount: shipped.photoCount)
        let connection = try SQLiteConnection(path: databasePath, mode: .readOnly)
        var ranks = [Int32](repeating: 0, count: shipped.photoCount)
        var rank: Int32 = 0
        // The UNIQUE index on photo_id yields them in BINARY (UTF-8 byte) order.
        let rows = try connection.prepare("SELECT position FROM photos ORDER BY photo_id")
        while try rows.step() {
            let position = rows.int(0)
            guard ranks.indices.contains(position) else {
                throw CatalogError.malformedDatabase(path: databasePath, reason: "photo position \(position) out of range")
            }
            ranks[position] = rank
            rank += 1
        }
        photoIDRanks = ranks
    }
}
