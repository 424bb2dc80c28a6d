import SQLite

/// The SQLite side of `UserDataConnection`: the calls go straight to the
/// `SQLiteConnection` (its statement cache included), so the SQLite store behaves as
/// if `Accounts` used the connection itself.
struct SQLiteUserDataConnection: UserDataConnection {
    let connection: SQLiteConnection
    /// Where a write transaction collects the users it changed; nil on a reader.
    var announcements: ChangeAnnouncements? = nil

    func execute(_ sql: String, _ values: [SQLiteValue]) throws {
        try connection.execute(sql, values)
    }

    func query<Row>(_ sql: String, _ values: [SQLiteValue], row: (any UserDataRow) throws -> Row) throws -> [Row] {
        try connection.query(sql, values) { try row($0) }
    }

    func queryFirst<Row>(_ sql: String, _ values: [SQLiteValue], row: (any UserDataRow) throws -> Row) throws -> Row? {
        try connection.queryFirst(sql, values) { try row($0) }
    }

    func exists(_ sql: String, _ values: [SQLiteValue]) throws -> Bool {
        let statement = try connection.cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(values)
        return try statement.step()
    }

    var changes: Int { connection.changes }

    func snapshot<Result>(_ body: () throws -> Result) throws -> Result {
        try connection.transaction(.deferred, body)
    }

    func lockRows(_ sql: String, _ values: [SQLiteValue]) throws {}

    func announceChange(ofUser userID: Int64) throws {
        guard let announcements else { preconditionFailure("a change announced outside a write") }
        announcements.add(userID)
    }
}
