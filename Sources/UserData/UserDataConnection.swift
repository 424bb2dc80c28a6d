/// A connection to the user-data store, as the SQL of `Accounts` and `Walks` sees it,
/// whichever store is behind it (`SQLiteUserDataConnection`, `PostgresUserDataConnection`).
///
/// The SQL is written once for both: `?` placeholders (`?1`, `?2` to reuse one), the
/// same table and column names, and only syntax both engines accept (`ON CONFLICT`,
/// `RETURNING`, `LIMIT … OFFSET`). Values are `UserDataValue`s, which both map exactly.
public protocol UserDataConnection {
    func execute(_ sql: String, _ values: [UserDataValue]) throws
    func query<Row>(_ sql: String, _ values: [UserDataValue], row: (any UserDataRow) throws -> Row) throws -> [Row]
    func queryFirst<Row>(_ sql: String, _ values: [UserDataValue], row: (any UserDataRow) throws -> Row) throws -> Row?
    /// Whether `sql` returns a row: for the lookups repeated many times in one
    /// transaction (the walk's photo choice), which each store makes cheap its way.
    func exists(_ sql: String, _ values: [UserDataValue]) throws -> Bool
    /// Rows the last `execute` inserted, updated or deleted.
    var changes: Int { get }
    /// Runs `body`'s reads in one consistent snapshot (a read transaction).
    func snapshot<Result>(_ body: () throws -> Result) throws -> Result
    /// Locks, for the rest of the write transaction, the rows `sql` (a `SELECT` from
    /// one table) selects, waiting while another writer holds them: PostgreSQL runs it
    /// `FOR UPDATE`; SQLite runs nothing, its single writer already excludes every other.
    func lockRows(_ sql: String, _ values: [UserDataValue]) throws
    /// Tells the store's `ChangeFeed` that the user's data changed, once (and only if)
    /// this write transaction commits: SQLite collects the users and publishes them
    /// after the commit; PostgreSQL collects them too and, after the commit,
    /// `PostgresChangeAnnouncer` sends a `NOTIFY` to the listening connection of
    /// every instance.
    func announceChange(ofUser userID: Int64) throws
}

extension UserDataConnection {
    /// `execute` of a statement without parameters.
    public func execute(_ sql: String) throws {
        try execute(sql, [])
    }

    /// `query` of a statement without parameters.
    public func query<Row>(_ sql: String, row: (any UserDataRow) throws -> Row) throws -> [Row] {
        try query(sql, [], row: row)
    }

    /// `queryFirst` of a statement without parameters.
    public func queryFirst<Row>(_ sql: String, row: (any UserDataRow) throws -> Row) throws -> Row? {
        try queryFirst(sql, [], row: row)
    }
}
