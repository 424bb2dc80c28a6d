import SQLite

/// The SQLite side of `UserDataConnection`: the calls go straight to the
/// `SQLiteConnection` (its statement cache included), with the values as SQLite's, so
/// the SQLite store behaves as if `Accounts` used the connection itself.
struct SQLiteUserDataConnection: UserDataConnection {
    let connection: SQLiteConnection
    /// Where a write transaction collects the users it changed; nil on a reader.
    var announcements: ChangeAnnouncements? = nil

    func execute(_ sql: String, _ values: [UserDataValue]) throws {
        try connection.execute(sql, values.map(SQLiteValue.init))
    }

    func query<Row>(_ sql: String, _ values: [UserDataValue], row: (any UserDataRow) throws -> Row) throws -> [Row] {
        try connection.query(sql, values.map(SQLiteValue.init)) { try row($0) }
    }

    func queryFirst<Row>(_ sql: String, _ values: [UserDataValue], row: (any UserDataRow) throws -> Row) throws -> Row? {
        try connection.queryFirst(sql, values.map(SQLiteValue.init)) { try row($0) }
    }

    func exists(_ sql: String, _ values: [UserDataValue]) throws -> Bool {
        let statement = try connection.cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(values.map(SQLiteValue.init))
        return try statement.step()
    }

    var changes: Int { connection.changes }

    func snapshot<Result>(_ body: () throws -> Result) throws -> Result {
        try connection.transaction(.deferred, body)
    }

    func lockRows(_ sql: String, _ values: [UserDataValue]) throws {}

    func announceChange(ofUser userID: Int64) throws {
        guard let announcements else { preconditionFailure("a change announced outside a write") }
        announcements.add(userID)
    }
}
