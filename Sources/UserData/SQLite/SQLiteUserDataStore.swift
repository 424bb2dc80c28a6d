import Basics
import Dispatch
import SQLite
import Synchronization

/// The connections to `accounts.sqlite`: one writer behind a lock and a few
/// readers, in WAL mode so readers never wait for the writer
/// (https://sqlite.org/wal.html).
///
/// `SQLiteConnection` is not `Sendable`: each one lives inside its own lock
/// (`LockedConnection`), so only the thread holding that lock touches it. Writes are serialized on the writer
/// (SQLite allows one writer at a time anyway); a read takes an idle reader, or waits
/// until one is idle.
///
/// The `UserDataStore` of one instance, the default: the modules whose data hangs off
/// a user (walks) keep their rows in this file, under the users' foreign keys,
/// committed with the same durability.
public final class SQLiteUserDataStore: UserDataStore {
    static let fileName = "accounts.sqlite"
    static let busyTimeoutMilliseconds: Int32 = 5_000

    /// Held shared while the store is open, so `restore` cannot replace the file under it.
    private let directoryLock: DataDirectoryLock
    private let writer: LockedConnection
    private let readers: [LockedConnection]
    /// The indexes in `readers` of the idle ones, the most recently used last (its pages
    /// are the likeliest to be in its cache), and their count as a semaphore.
    private let idleReaders: Mutex<[Int]>
    private let readerIsIdle: DispatchSemaphore
    /// Grouped writes waiting for the next commit, and whether `committer` is at work
    /// (it then takes them without being asked).
    private let pendingGroup = Mutex<(jobs: [any GroupedWriteJob], isCommitting: Bool)>(([], false))
    public let changeFeed = ChangeFeed()
    /// Never published: the catalog looks at `catalog_corrections` itself (`CorrectionsFeed`).
    public let correctionsFeed = CorrectionsFeed()
    public let commitMetrics = CommitMetrics()
    /// Where groups are committed, one after another.
    private let committer = DispatchQueue(label: "past-nyc.group-commit")

    init(path: String, readerCount: Int = 4) throws {
        directoryLock = try Self.lockDirectory(of: path)
        (writer, readers) = try UserDataError.mappingSQLiteErrors { try Self.open(path: path, readerCount: readerCount) }
        idleReaders = Mutex(Array(readers.indices))
        readerIsIdle = DispatchSemaphore(value: readers.count)
    }

    /// The shared lock on the file's folder; refused while `restore` holds it.
    private static func lockDirectory(of path: String) throws -> DataDirectoryLock {
        let directory = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        do {
            guard let lock = try DataDirectoryLock.acquire(.shared, directory: directory) else {
                throw UserDataError(.failed, detail: "past-nyc restore is replacing the user data in \(directory)")
            }
            return lock
        } catch let error as SystemCallError {
            throw UserDataError(.failed, detail: error.description)
        }
    }

    /// Opens the writer (migrating the file) and the readers.
    private static func open(path: String, readerCount: Int) throws -> (writer: LockedConnection, readers: [LockedConnection]) {
        let writerConnection = try SQLiteConnection(path: path)
        writerConnection.setBusyTimeout(milliseconds: Self.busyTimeoutMilliseconds)
        // WAL: readers and the writer do not block each other. synchronous=FULL:
        // every commit is fsynced, so a saved favorite survives power loss
        // (https://sqlite.org/pragma.html#pragma_synchronous).
        try writerConnection.execute("PRAGMA journal_mode = WAL")
        try writerConnection.execute("PRAGMA synchronous = FULL")
        try writerConnection.execute("PRAGMA foreign_keys = ON")
        try SQLiteUserDataSchema.migrator.migrate(writerConnection)
        let writer = LockedConnection(writerConnection)

        var readers: [LockedConnection] = []
        for _ in 0..<readerCount {
            let reader = try SQLiteConnection(path: path)
            reader.setBusyTimeout(milliseconds: Self.busyTimeoutMilliseconds)
            try reader.execute("PRAGMA query_only = ON")
            // One read now opens the reader's descriptors of the WAL and its index, which
            // SQLite otherwise opens at the reader's first read: the server's descriptors
            // are all open from the start, and a count that grows under load is a leak.
            try reader.execute("SELECT count(*) FROM sqlite_schema")
            readers.append(LockedConnection(reader))
        }
        return (writer, readers)
    }

    /// Opens (creating or migrating) `<dataDirectory>/accounts.sqlite`.
    public convenience init(dataDirectory: String) throws {
        try self.init(path: dataDirectory + "/" + Self.fileName)
    }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction on the writer.
    public func write<Result: Sendable>(_ body: (any UserDataConnection) throws -> Result) throws -> Result {
        let announcements = ChangeAnnouncements()
        let result = try UserDataError.mappingSQLiteErrors {
            try writer.withLock { connection in
                try connection.transaction(.immediate) {
                    try body(SQLiteUserDataConnection(connection: connection, announcements: announcements))
                }
            }
        }
        changeFeed.publish(.some(announcements.userIDs))
        return result
    }

    /// Runs `body` in a transaction that may be shared with other callers' grouped
    /// writes, so that one commit (one fsync, the cost that bounds durable writes per
    /// second) covers them all: group commit. Each body runs alone inside its own
    /// savepoint, so one that throws is rolled back by itself and the others commit.
    /// `completion` gets the outcome only once the commit holding `body`'s changes is
    /// durable, on the committer's thread.
    ///
    /// How the group forms: a caller queues its body and returns. The committer (one
    /// serial queue) takes every queued body, commits them together, hands out their
    /// outcomes, and takes whatever queued meanwhile, until none is left. No timer holds
    /// a group open: while one group commits, the next one gathers, so under load the
    /// fsync itself is the window and the group grows with the load. A write waits for
    /// at most the commit under way and then its own: two fsyncs and the bodies of two
    /// groups. Callers do not wait on a thread each (the HTTP handlers answer through the
    /// completion), so the size of a group is not bounded by the number of threads.
    public func groupWrite<Value: Sendable>(
        _ body: @escaping @Sendable (any UserDataConnection) throws -> Value,
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        let job = GroupedWrite(body) { completion($0.mapError(UserDataError.fromSQLite)) }
        let startsCommitter = pendingGroup.withLock { pending in
            pending.jobs.append(job)
            guard !pending.isCommitting else { return false }
            pending.isCommitting = true
            return true
        }
        if startsCommitter { committer.async { self.commitPending() } }
    }

    /// Commits the queued groups one after another until none is left.
    private func commitPending() {
        while true {
            let group = pendingGroup.withLock { pending in
                defer { pending.jobs.removeAll(keepingCapacity: true) }
                if pending.jobs.isEmpty { pending.isCommitting = false }
                return pending.jobs
            }
            guard !group.isEmpty else { return }
            let announcements = ChangeAnnouncements()
            let startedAt = DispatchTime.now().uptimeNanoseconds
            let committed = writer.withLock { connection in
                Self.commit(group, on: SQLiteUserDataConnection(connection: connection, announcements: announcements))
            }
            commitMetrics.observe(writes: group.count, nanoseconds: DispatchTime.now().uptimeNanoseconds &- startedAt)
            if committed { changeFeed.publish(.some(announcements.userIDs)) }
        }
    }

    /// Runs every job of `group` in its savepoint inside one transaction and commits it;
    /// then, and only then, hands each job its outcome (a failed commit fails them all).
    /// - Returns: whether the group committed.
    private static func commit(_ group: [any GroupedWriteJob], on writer: SQLiteUserDataConnection) -> Bool {
        let connection = writer.connection
        // Each statement runs with `[]`, the connection's prepared copy: parsing the
        // savepoint's two statements anew for every write was a tenth of a favorite's CPU.
        do {
            try connection.execute("BEGIN IMMEDIATE", [])
            for job in group {
                try connection.execute("SAVEPOINT grouped_write", [])
                let succeeded = job.run(on: writer)
                if !succeeded { try connection.execute("ROLLBACK TO grouped_write", []) }
                try connection.execute("RELEASE grouped_write", [])
            }
            try connection.execute("COMMIT", [])
            for job in group { job.finish(failure: nil) }
            return true
        } catch {
            try? connection.execute("ROLLBACK", [])  // The commit's error is what the callers get; a failed rollback leaves nothing committed.
            for job in group { job.finish(failure: error) }
            return false
        }
    }

    /// Runs `body` on a reader connection (one consistent snapshot per statement;
    /// wrap several statements in a transaction when they must agree).
    ///
    /// A read waits only while every reader is in use, never behind one reader while
    /// another is idle: with more worker threads than readers, waiting on a chosen
    /// reader's lock let some reads wait for several others in turn (the tail latency of
    /// `GET /favorites?ids=`).
    public func read<Result: Sendable>(_ body: (any UserDataConnection) throws -> Result) throws -> Result {
        readerIsIdle.wait()
        let index = idleReaders.withLock { $0.removeLast() }
        defer {
            idleReaders.withLock { $0.append(index) }
            readerIsIdle.signal()
        }
        return try UserDataError.mappingSQLiteErrors {
            try readers[index].withLock { connection in try body(SQLiteUserDataConnection(connection: connection)) }
        }
    }

    /// The write's two steps: a read and a group commit cost no round trips here.
    public func run<Value: Sendable>(
        _ write: TokenCheckedWrite<Value>, completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        write.inTwoSteps(completion)
    }

    /// No arrays: one placeholder per item.
    public var bindsLists: Bool { false }

    /// One instance's file.
    public var isShared: Bool { false }
}
