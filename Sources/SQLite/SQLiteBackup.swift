import CSQLite

/// A copy of one database file into another as it was at one moment, made by SQLite's
/// online backup API (https://sqlite.org/backup.html) while other connections, in this
/// process or others, go on writing to the source.
///
/// The moment: the backup runs through a source connection of its own that holds one
/// read transaction from `init` to the last `step`. `sqlite3_backup_step` uses an open
/// read transaction instead of opening one per call
/// (https://sqlite.org/c3ref/backup_finish.html), so on a WAL database every slice reads
/// the same snapshot, and a write committed meanwhile neither shows in the copy nor
/// restarts it. In WAL mode that read transaction holds no writer back
/// (https://sqlite.org/wal.html#concurrency); it only keeps checkpoints from copying
/// frames past its snapshot, so the WAL grows by what is written during the backup.
///
/// Owns the backup handle and both connections; not `Sendable`, like the connections.
public final class SQLiteBackup {
    private let source: SQLiteConnection
    private let destination: SQLiteConnection
    private let handle: OpaquePointer
    private var isFinished = false

    /// Opens `sourcePath` (which must exist), begins the read transaction that fixes the
    /// moment, and prepares a copy into `destinationPath` (created if missing, replaced
    /// whole if not).
    public init(sourcePath: String, destinationPath: String, busyTimeoutMilliseconds: Int32 = 5_000) throws {
        source = try SQLiteConnection(path: sourcePath, mode: .readOnly)
        source.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
        // BEGIN DEFERRED starts the read transaction at the first read: this one.
        try source.execute("BEGIN DEFERRED")
        _ = try source.queryFirst("SELECT count(*) FROM sqlite_schema") { $0.int(0) }
        destination = try SQLiteConnection(path: destinationPath)
        guard let handle = sqlite3_backup_init(destination.handle, "main", source.handle, "main") else {
            throw destination.error(code: sqlite3_errcode(destination.handle), sql: nil)
        }
        self.handle = handle
    }

    deinit {
        if !isFinished { sqlite3_backup_finish(handle) }
    }

    /// Copies up to `pages` more pages. Returns true once the whole database is copied.
    public func step(pages: Int32) throws -> Bool {
        let code = sqlite3_backup_step(handle, pages)
        switch code {
        case SQLITE_OK: return false
        case SQLITE_DONE: return true
        default: throw SQLiteError(code: code, message: String(cString: sqlite3_errstr(code)), sql: nil)
        }
    }

    /// Pages of the source still to copy, as of the last `step`.
    public var remainingPages: Int { Int(sqlite3_backup_remaining(handle)) }

    /// Pages of the source, as of the last `step`.
    public var pageCount: Int { Int(sqlite3_backup_pagecount(handle)) }

    /// Releases the backup handle and ends the source's read transaction. The copy is
    /// whole only if `step` returned true before.
    public func finish() throws {
        guard !isFinished else { return }
        isFinished = true
        let code = sqlite3_backup_finish(handle)
        try source.execute("COMMIT")
        guard code == SQLITE_OK else {
            throw SQLiteError(code: code, message: String(cString: sqlite3_errstr(code)), sql: nil)
        }
    }

    /// The destination, for what follows the copy (a journal mode, a check).
    public var copy: SQLiteConnection { destination }
}
