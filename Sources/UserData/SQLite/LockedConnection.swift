import SQLite
import Synchronization

/// A connection only reachable while holding its lock, so the non-`Sendable`
/// `SQLiteConnection` is used by one thread at a time. A class, so several can sit in
/// an array (a `Mutex` cannot be copied).
final class LockedConnection: Sendable {
    private let mutex: Mutex<SQLiteConnection>

    init(_ connection: sending SQLiteConnection) {
        mutex = Mutex(connection)
    }

    func withLock<Result: Sendable>(_ body: (SQLiteConnection) throws -> Result) rethrows -> Result {
        try mutex.withLock { connection in try body(connection) }
    }
}
