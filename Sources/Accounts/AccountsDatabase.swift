import SQLite
import Synchronization

/// The connections to `accounts.sqlite`: one writer behind a lock and a few
/// readers, in WAL mode so readers never wait for the writer
/// (https://sqlite.org/wal.html).
///
/// `Connection` is not `Sendable`: each one lives inside its own lock
/// (`LockedConnection`), so only the thread holding that lock touches it. Writes are serialized on the writer
/// (SQLite allows one writer at a time anyway); a read takes the first free reader,
/// or waits for one when all are busy.
final class AccountsDatabase: Sendable {
    static let fileName = "accounts.sqlite"
    static let busyTimeoutMilliseconds: Int32 = 5_000

    private let writer: LockedConnection
    private let readers: [LockedConnection]
    private let nextReader = Atomic<Int>(0)

    init(path: String, readerCount: Int = 4) throws {
        let writerConnection = try Connection(path: path)
        writerConnection.setBusyTimeout(milliseconds: Self.busyTimeoutMilliseconds)
        // WAL: readers and the writer do not block each other. synchronous=FULL:
        // every commit is fsynced, so a saved favorite survives power loss
        // (https://sqlite.org/pragma.html#pragma_synchronous).
        try writerConnection.execute("PRAGMA journal_mode = WAL")
        try writerConnection.execute("PRAGMA synchronous = FULL")
        try writerConnection.execute("PRAGMA foreign_keys = ON")
        try AccountsSchema.migrator.migrate(writerConnection)
        writer = LockedConnection(writerConnection)

        var readers: [LockedConnection] = []
        for _ in 0..<readerCount {
            let reader = try Connection(path: path)
            reader.setBusyTimeout(milliseconds: Self.busyTimeoutMilliseconds)
            try reader.execute("PRAGMA query_only = ON")
            readers.append(LockedConnection(reader))
        }
        self.readers = readers
    }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction on the writer.
    func write<Result: Sendable>(_ body: (Connection) throws -> Result) throws -> Result {
        try writer.withLock { connection in
            try connection.transaction(.immediate) { try body(connection) }
        }
    }

    /// Runs `body` on a reader connection (one consistent snapshot per statement;
    /// wrap several statements in a transaction when they must agree).
    func read<Result: Sendable>(_ body: (Connection) throws -> Result) throws -> Result {
        for reader in readers {
            if let result = try reader.withLockIfAvailable({ connection in try body(connection) }) {
                return result
            }
        }
        let index = nextReader.wrappingAdd(1, ordering: .relaxed).oldValue % readers.count
        return try readers[index].withLock { connection in try body(connection) }
    }
}
