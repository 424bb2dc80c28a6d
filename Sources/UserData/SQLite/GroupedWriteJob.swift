import SQLite

/// A body waiting in `SQLiteUserDataStore.groupWrite`, seen without its result type by
/// whoever commits the group.
protocol GroupedWriteJob: Sendable {
    /// Runs the body on the writer (inside its savepoint); false when it threw.
    func run(on connection: SQLiteUserDataConnection) -> Bool
    /// Hands the caller its outcome once the group's commit is known: the body's own
    /// result, or `failure` when the commit failed.
    func finish(failure: (any Error)?)
}
