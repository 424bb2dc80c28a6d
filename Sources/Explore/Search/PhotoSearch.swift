import Catalog
import SQLite
import Synchronization

/// `GET /search`: photos whose words match every word of a query (openapi.yaml).
///
/// SQLite's FTS5 index in the catalog database finds and ranks the matches
/// (`SearchIndex`); the in-memory catalog then applies the filters, orders by distance
/// when asked and cuts the page. Queries block on SQLite, so they run on the server's
/// worker threads, each on a read-only connection of its own from a small pool.
///
/// `Sendable`: the catalog and the ID order are immutable; connections and the cache
/// are behind their locks.
public final class PhotoSearch: Sendable {
    private let catalog: PhotoCatalog
    private let connections: [SearchConnection]
    private let nextConnection = Atomic<Int>(0)
    private let cache: RankedListCache
    /// Each photo's rank in `photoID` order (code points, i.e. UTF-8 bytes): breaks ties.
    private let photoIDRanks: [Int32]

    /// - Parameters:
    ///   - databasePath: the catalog database `catalog` was loaded from.
    ///   - connectionCount: read-only connections; as many as the worker threads that
    ///     may search at once.
    ///   - cachedEntries: photo entries the ranked-list cache may hold (4 bytes each).
    public init(catalog: PhotoCatalog, databasePath: String, connectionCount: Int, cachedEntries: Int = 4_000_000) throws {
        self.catalog = catalog
        connections = try (0..<max(1, connectionCount)).map { _ in try SearchConnection(path: databasePath) }
        cache = RankedListCache(minimumCount: 256, capacity: cachedEntries)
        photoIDRanks = try Self.photoIDRanks(databasePath: databasePath, photoCount: catalog.photos.count)
    }

    /// One page of the photos matching `query`, and how many match in all.
    public func search(_ query: SearchQuery) throws -> SearchPage {
        let ranked = try rankedList(query.terms.matchExpression)
        let filter = query.filter
        let matches: [Int32]
        if filter.filtersYears || filter.borough != nil {
            matches = ranked.filter { photo in
                let location = catalog.photos[Int(photo)].locationIndex
                if let borough = filter.borough, catalog.locations[location].borough != borough { return false }
                return !filter.filtersYears || catalog.photo(Int(photo), matches: filter)
            }
        } else {
            matches = ranked
        }
        let start = min(query.offset, matches.count)
        let end = min(start + query.limit, matches.count)
        let nextOffset = end < matches.count ? end : nil
        guard let origin = query.origin else {
            return SearchPage(total: matches.count, photos: matches[start..<end].map { Int($0) }, distances: [], nextOffset: nextOffset)
        }
        let nearest = nearestFirst(matches, latitude: origin.latitude, longitude: origin.longitude, count: end)
        return SearchPage(
            total: matches.count, photos: nearest[start..<end].map { Int($0.photo) }, distances: nearest[start..<end].map(\.distance),
            nextOffset: nextOffset)
    }

    /// The first `count` of `matches` by distance to the point, ties by `photoID`.
    private func nearestFirst(_ matches: [Int32], latitude: Double, longitude: Double, count: Int)
        -> [(photo: Int32, distance: Double)]
    {
        var measured = matches.map { photo in
            let location = catalog.locations[catalog.photos[Int(photo)].locationIndex]
            return (
                photo: photo,
                distance: GreatCircle.distance(
                    latitude1: latitude, longitude1: longitude, latitude2: location.latitude, longitude2: location.longitude)
            )
        }
        measured.sort { $0.distance != $1.distance ? $0.distance < $1.distance : photoIDRanks[Int($0.photo)] < photoIDRanks[Int($1.photo)] }
        return Array(measured.prefix(count))
    }

    /// Every photo matching the expression, most relevant first, ties by `photoID`.
    private func rankedList(_ expression: String) throws -> [Int32] {
        if let list = cache.list(for: expression) { return list }
        var matches = try rankedMatches(expression)
        matches.sort { $0.rank != $1.rank ? $0.rank < $1.rank : photoIDRanks[Int($0.photo)] < photoIDRanks[Int($1.photo)] }
        let list = matches.map(\.photo)
        cache.keep(list, for: expression)
        return list
    }

    /// Runs the full-text query on a free connection, or waits for one when all are busy.
    private func rankedMatches(_ expression: String) throws -> [RankedMatch] {
        let first = nextConnection.add(1, ordering: .relaxed).oldValue
        for offset in 0..<connections.count {
            let connection = connections[(first + offset) % connections.count]
            if let matches = try connection.rankedMatchesIfAvailable(expression) { return matches }
        }
        return try connections[first % connections.count].rankedMatches(expression)
    }

    private static func photoIDRanks(databasePath: String, photoCount: Int) throws -> [Int32] {
        let connection = try Connection(path: databasePath, mode: .readOnly)
        var ranks = [Int32](repeating: 0, count: photoCount)
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
        return ranks
    }
}
