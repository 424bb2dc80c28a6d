import Catalog
import SQLite
import Synchronization

/// A read-only connection to the catalog database with the search statement prepared
/// on it, reachable only under its lock: SQLite connections are not `Sendable`
/// (https://sqlite.org/threadsafe.html), so each is used by one worker at a time.
final class SearchConnection: Sendable {
    /// The connection and its statement, owned together (the statement belongs to it).
    private struct Handles {
        let connection: Connection
        let rankedMatches: Statement
    }

    private let handles: Mutex<Handles>

    init(path: String) throws {
        let connection = try Connection(path: path, mode: .readOnly)
        let statement = try connection.prepare(SearchIndex.rankedMatchesQuery)
        handles = Mutex(Handles(connection: connection, rankedMatches: statement))
    }

    /// Every photo matching `expression` with its rank (smaller is more relevant), or nil
    /// when another worker holds the connection right now.
    func rankedMatchesIfAvailable(_ expression: String) throws -> [RankedMatch]? {
        try handles.withLockIfAvailable { handles in try Self.rankedMatches(expression, handles.rankedMatches) }
    }

    /// Every photo matching `expression` with its rank, waiting for the connection.
    func rankedMatches(_ expression: String) throws -> [RankedMatch] {
        try handles.withLock { handles in try Self.rankedMatches(expression, handles.rankedMatches) }
    }

    private static func rankedMatches(_ expression: String, _ statement: Statement) throws -> [RankedMatch] {
        try statement.bind([.text(expression)])
        defer { statement.reset() }
        var matches: [RankedMatch] = []
        while try statement.step() {
            matches.append(RankedMatch(photo: Int32(truncatingIfNeeded: statement.int64(0)), rank: statement.double(1)))
        }
        return matches
    }
}
