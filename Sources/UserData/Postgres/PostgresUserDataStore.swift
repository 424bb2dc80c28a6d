import Dispatch
import Glibc
import Postgres
import Synchronization

/// The user data in a PostgreSQL database that several instances share
/// (`--database-url`). Migrates the schema at start (under an advisory lock, so
/// instances starting together do not race), then serves every call from a bounded
/// pool of connections, opened on demand and opened again after they break.
///
/// `write` runs SERIALIZABLE: concurrent transactions behave as if they ran one after
/// another, as on SQLite's single writer. `groupWrite` runs READ COMMITTED: its body
/// takes the row locks it depends on first, so writers of one walk queue on its row
/// instead of failing each other, and writers of different walks never conflict. A
/// transaction that still loses a race (40001) or is chosen to break a deadlock
/// (40P01) is rolled back and run again after a short random pause, a bounded number
/// of times, then fails with `UserDataError`'s `unavailable` (a 503). Every
/// connection commits with `synchronous_commit` on and bounds each statement with a
/// timeout. When the server is down or restarting, a call fails within about 2 s with
/// `unavailable`, never waiting for the server; the next call connects again. Every
/// failure of PostgreSQL's reaches the caller as a `UserDataError`.
public final class PostgresUserDataStore: UserDataStore {
    /// Connections per instance when the command line does not say.
    public static let defaultPoolSize = 8
    /// How long a call waits for a free connection, and how long a connection attempt
    /// may take: together they keep a failing call under 2 s.
    static let poolWaitMilliseconds = 900
    static let connectTimeout = Duration.milliseconds(1000)
    /// Times a write that lost a serialization race is run in all before it fails
    /// with `unavailable`.
    static let maximumWriteAttempts = 10
    /// The longest pause before running a write again, in milliseconds.
    static let maximumRetryPauseMilliseconds = 50

    private let url: String
    public let changeFeed = ChangeFeed()
    public let commitMetrics = CommitMetrics()
    public let correctionsFeed = CorrectionsFeed()
    private let announcer: PostgresChangeAnnouncer
    private let slots: [PostgresPoolSlot]
    /// Counts free slots, so a caller waits (at most `poolWait`) instead of spinning.
    private let freeSlots: DispatchSemaphore

    /// Connects once to migrate the schema.
    /// - Throws: `UserDataError` when the server cannot be reached or the migration fails.
    public init(url: String, poolSize: Int = defaultPoolSize) throws {
        precondition(poolSize > 0, "the pool needs a connection")
        self.url = url
        do {
            let connection = try PostgresConnection(url: url, connectTimeout: .seconds(10))
            // Migrations may take longer than one request's statement.
            try connection.execute("SET statement_timeout = 0")
            try PostgresUserDataSchema.migrator.migrate(connection)
        } catch let error as PostgresError {
            throw UserDataError(error)
        }
        slots = (0..<poolSize).map { _ in PostgresPoolSlot() }
        freeSlots = DispatchSemaphore(value: poolSize)
        announcer = try PostgresChangeAnnouncer.start(url: url)
        try PostgresChangeListener.start(url: url, feed: changeFeed, corrections: correctionsFeed)
    }

    public func read<Result: Sendable>(_ body: (any UserDataConnection) throws -> Result) throws -> Result {
        try withConnection { connection in try body(connection) }
    }

    public func write<Result: Sendable>(_ body: (any UserDataConnection) throws -> Result) throws -> Result {
        try transaction("BEGIN ISOLATION LEVEL SERIALIZABLE", body)
    }

    /// PostgreSQL groups concurrent commits itself; each body is its own transaction,
    /// at READ COMMITTED because the body locks the rows it depends on.
    /// Runs on the calling thread and calls `completion` before it returns: the pool's
    /// connections, not threads, bound how many transactions are open at once.
    public func groupWrite<Value: Sendable>(
        _ body: @escaping @Sendable (any UserDataConnection) throws -> Value,
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        let startedAt = DispatchTime.now().uptimeNanoseconds
        let result = Result { try transaction("BEGIN ISOLATION LEVEL READ COMMITTED", body) }
        commitMetrics.observe(writes: 1, nanoseconds: DispatchTime.now().uptimeNanoseconds &- startedAt)
        completion(result)
    }

    /// The write's one statement (a stored function that checks the token and writes),
    /// through `writeStatement`: one round trip.
    public func run<Value: Sendable>(
        _ write: TokenCheckedWrite<Value>, completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        completion(Result { try writeStatement(write.inOneStatement) })
    }

    /// Arrays: `= ANY(?)`.
    public var bindsLists: Bool { true }

    /// Runs `body`, which runs one statement (the call of a stored function), as a
    /// write transaction of its own in one round trip: sent without BEGIN or COMMIT,
    /// the statement is committed by the server before it answers (durably:
    /// `synchronous_commit`), or rolled back whole; the changes `body` announces go out
    /// after it. READ COMMITTED, as `groupWrite`: the statement locks the rows it
    /// depends on. A statement that loses a deadlock is not run again: `unavailable`.
    func writeStatement<Result: Sendable>(_ body: (any UserDataConnection) throws -> Result) throws -> Result {
        let startedAt = DispatchTime.now().uptimeNanoseconds
        defer { commitMetrics.observe(writes: 1, nanoseconds: DispatchTime.now().uptimeNanoseconds &- startedAt) }
        return try withConnection { connection in
            _ = connection.takeAnnouncedUsers()
            let result = try body(connection)
            announcer.announce(connection.takeAnnouncedUsers())
            return result
        }
    }

    /// Shared by every instance that names the same database.
    public var isShared: Bool { true }

    /// Runs `body` in a transaction opened by `begin`, again after a serialization
    /// failure or a broken deadlock, at most `maximumWriteAttempts` times in all.
    private func transaction<Result: Sendable>(
        _ begin: String, _ body: (any UserDataConnection) throws -> Result
    ) throws -> Result {
        try withConnection { connection in
            var attempt = 1
            while true {
                _ = connection.takeAnnouncedUsers()  // those of an attempt that failed
                try connection.statement(begin)
                do {
                    let result = try body(connection)
                    try connection.statement("COMMIT")
                    announcer.announce(connection.takeAnnouncedUsers())
                    return result
                } catch let error as PostgresError where error.isSerializationFailure {
                    try? connection.statement("ROLLBACK")
                    guard attempt < Self.maximumWriteAttempts else { throw UserDataError(error) }
                    // A random pause growing with the attempts, so the writers that
                    // collided do not collide again at once (on a worker thread).
                    let ceiling = min(1 << min(attempt, 6), Self.maximumRetryPauseMilliseconds)
                    usleep(UInt32(Int.random(in: 0...ceiling) * 1000))
                    attempt += 1
                } catch {
                    try? connection.statement("ROLLBACK")
                    throw error
                }
            }
        }
    }

    /// Runs `body` on a free pooled connection (connecting it first if it is new or
    /// broke); turns a store that cannot be reached into `unavailable`.
    private func withConnection<Result: Sendable>(
        _ body: (PostgresUserDataConnection) throws -> Result
    ) throws -> Result {
        guard freeSlots.wait(timeout: .now() + .milliseconds(Self.poolWaitMilliseconds))
            == .success
        else {
            throw UserDataError(
                .unavailable(retryAfterSeconds: 1),
                detail: "no pooled PostgreSQL connection became free within \(Self.poolWaitMilliseconds) ms")
        }
        defer { freeSlots.signal() }
        // The semaphore guarantees a free slot; another caller may take the one this
        // scan tries first, so scan until one is had.
        while true {
            for slot in slots {
                if let outcome = slot.withConnectionIfFree(url: url, connectTimeout: Self.connectTimeout, body) {
                    return try outcome.get()
                }
            }
        }
    }
}
