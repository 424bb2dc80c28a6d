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
        let phraseRanks: Statement
    }

    private let handles: Mutex<Handles>

    init(path: String) throws {
        let connection = try Connection(path: path, mode: .readOnly)
        let statement = try connection.prepare(SearchIndex.phraseRanksQuery)
        handles = Mutex(Handles(connection: connection, phraseRanks: statement))
    }

    /// The matches of one phrase, or nil when another worker holds the connection right now.
    func matchesIfAvailable(_ phrase: String) throws -> PhraseMatches? {
        try handles.withLockIfAvailable { handles in try Self.matches(phrase, handles.phraseRanks) }
    }

    /// The matches of one phrase, waiting for the connection.
    func matches(_ phrase: String) throws -> PhraseMatches {
        try handles.withLock { handles in try Self.matches(phrase, handles.phraseRanks) }
    }

    private static func matches(_ phrase: String, _ statement: Statement) throws -> PhraseMatches {
        try statement.bind([.text(phrase)])
        defer { statement.reset() }
        var photos: [Int32] = []
        var ranks: [Double] = []
        while try statement.step() {
            photos.append(Int32(truncatingIfNeeded: statement.int64(0)))
            ranks.append(statement.double(1))
        }
        return PhraseMatches(photos: photos, ranks: ranks)
    }
}
