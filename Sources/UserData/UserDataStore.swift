import Basics

/// Where users and everything that hangs off them live: the SQLite file of one
/// instance (`SQLiteUserDataStore`, the default) or a PostgreSQL database shared by many
/// (`PostgresUserDataStore`). `Accounts` and `Walks` run the same SQL on either, with
/// the same guarantees: every write is one transaction, committed durably before the
/// call returns, and concurrent writes behave as if they ran one after another.
///
/// Every method blocks (I/O, fsync): call them off the event loop. What the store
/// itself fails with is a `UserDataError`.
public protocol UserDataStore: Sendable {
    /// Runs `body` with a connection for reads (each statement sees committed data;
    /// `UserDataConnection.snapshot` makes several agree).
    func read<Result: Sendable>(_ body: (any UserDataConnection) throws -> Result) throws -> Result
    /// Runs `body` in one write transaction, committed durably before this returns;
    /// rolled back whole if `body` throws.
    func write<Result: Sendable>(_ body: (any UserDataConnection) throws -> Result) throws -> Result
    /// Like `write`, but the store may commit `body` together with other callers'
    /// (group commit), and answers through `completion` instead of making the caller
    /// wait: `completion` gets `body`'s result (or error) once the commit holding it is
    /// durable, on whichever thread learned it (so it must be quick: hand the result
    /// on). A `body` that throws is rolled back alone. `body` may run more than once,
    /// so it must only touch the database. `body` orders itself against other writers
    /// by row locks: it first locks (`UserDataConnection.lockRows`) every row whose
    /// state decides what it writes, and otherwise relies only on constraints. The
    /// store may then run it at a weaker isolation than `write` (PostgreSQL: READ
    /// COMMITTED, where SERIALIZABLE would fail writers of unrelated rows that share an
    /// index page).
    func groupWrite<Value: Sendable>(
        _ body: @escaping @Sendable (any UserDataConnection) throws -> Value,
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void)
    /// Runs a write for the holder of a bearer token in the form that suits this store
    /// (see `TokenCheckedWrite`), and hands `completion` its outcome.
    func run<Value: Sendable>(
        _ write: TokenCheckedWrite<Value>, completion: @escaping @Sendable (Result<Value, any Error>) -> Void)
    /// Whether a statement may bind a list as one value (`UserDataValue.blobs`, an array
    /// of PostgreSQL's); where it may not (SQLite), a list is bound one placeholder per item.
    var bindsLists: Bool { get }
    /// Whether several instances share this store: what must hold across instances
    /// (the failed-login counts) then lives in the store rather than in the process.
    var isShared: Bool { get }
    /// Whose data changed, after each commit that changed it (`UserDataConnection.announceChange`).
    var changeFeed: ChangeFeed { get }
    /// That accepted catalog corrections may have been added, by any instance (see `CorrectionsFeed`).
    var correctionsFeed: CorrectionsFeed { get }
    /// Writes per commit and commit durations, for `/metrics`.
    var commitMetrics: CommitMetrics { get }
}

extension UserDataStore {
    /// `groupWrite(_:completion:)` that waits for its commit and returns `body`'s result.
    public func groupWrite<Value: Sendable>(
        _ body: @escaping @Sendable (any UserDataConnection) throws -> Value
    ) throws -> Value {
        try Result.awaiting { completion in groupWrite(body, completion: completion) }
    }
}
