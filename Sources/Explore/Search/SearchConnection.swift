import Catalog
import SQLite
import Synchronization

/// A read-only connection to the catalog database with the search statement prepared
/// on it, reachable only under its lock: SQLite connections are not `Sendable`
/// (https://sqlite.org/threadsafe.html), so each is used by one worker at a time.
///
/// Opened on first use unless asked at once: a server that searches little keeps its
/// file descriptors for connections.
final class SearchConnection: Sendable {
    /// The connection and its statement, owned together (the statement belongs to it).
    private struct Handles {
        let connection: SQLiteConnection
        let phraseRanks: Statement

        init(path: String) throws {
            connection = try SQLiteConnection(path: path, mode: .readOnly)
            phraseRanks = try connection.prepare(SearchIndex.phraseRanksQuery)
        }
    }

    private let path: String
    private let handles: Mutex<Handles?>

    /// - Parameter openNow: opens the database and prepares the statement here, so a
    ///   database without the search index fails now rather than at the first search.
    init(path: String, openNow: Bool) throws {
        self.path = path
        handles = Mutex(openNow ? try Handles(path: path) : nil)
    }

    /// The photos matching one phrase, ascending, and the phrase's rank in each.
    typealias Rows = (photos: [Int32], ranks: [Double])

    /// The rows of one phrase, or nil when another worker holds the connection right now.
    func matchesIfAvailable(_ phrase: String) throws -> Rows? {
        try handles.withLockIfAvailable { handles in try Self.matches(phrase, in: &handles, path: path) }
    }

    /// The rows of one phrase, waiting for the connection.
    func matches(_ phrase: String) throws -> Rows {
        try handles.withLock { handles in try Self.matches(phrase, in: &handles, path: path) }
    }

    private static func matches(_ phrase: String, in handles: inout Handles?, path: String) throws -> Rows {
        let opened = try handles ?? Handles(path: path)
        handles = opened
        let statement = opened.phraseRanks
        try statement.bind([.text(phrase)])
        defer { statement.reset() }
        var photos: [Int32] = []
        var ranks: [Double] = []
        while try statement.step() {
            photos.append(Int32(truncatingIfNeeded: statement.int64(0)))
            ranks.append(statement.double(1))
        }
        return (photos, ranks)
    }
}
