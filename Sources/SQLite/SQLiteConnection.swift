import CSQLite

/// One SQLite database connection, closed on deinit.
///
/// Not `Sendable`: SQLite connections are used by one thread at a time here
/// (https://sqlite.org/threadsafe.html); share them through a serial owner.
public final class SQLiteConnection {
    public enum Mode: Sendable {
        case readOnly
        case readWriteCreate
    }

    let handle: OpaquePointer
    public let path: String
    /// Statements of `execute(_:_:)`, `query` and `queryFirst` by SQL text, prepared once
    /// and reused: preparing costs more than running most of the short statements here
    /// (https://sqlite.org/c3ref/prepare.html). Each is reset after use, so none keeps a
    /// read transaction open.
    private var statements: [String: Statement] = [:]

    public init(path: String, mode: Mode = .readWriteCreate) throws {
        var handle: OpaquePointer?
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        switch mode {
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(handle)
            throw SQLiteError(code: code, message: "\(message): \(path)")
        }
        self.handle = handle
        self.path = path
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit {
        statements.removeAll()  // Finalized first, so the close is immediate.
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that take no parameters (schema, pragmas), parsed
    /// anew at each call: a statement run often is cheaper as `execute(sql, [])`, which
    /// keeps it prepared.
    public func execute(_ sql: String) throws {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        guard code == SQLITE_OK else {
            let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(errorMessage)
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: message, sql: sql)
        }
    }

    /// Runs one statement with bound parameters and discards any rows.
    public func execute(_ sql: String, _ values: [SQLiteValue]) throws {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(values)
        while try statement.step() {}
    }

    /// Runs a query and maps each row. `row` must not run the same SQL on this connection
    /// (the statement is reused).
    public func query<Row>(
        _ sql: String, _ values: [SQLiteValue] = [], row: (Statement) throws -> Row
    ) throws -> [Row] {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(values)
        var rows: [Row] = []
        while try statement.step() {
            rows.append(try row(statement))
        }
        return rows
    }

    /// Runs a query and maps its first row, if any.
    public func queryFirst<Row>(
        _ sql: String, _ values: [SQLiteValue] = [], row: (Statement) throws -> Row
    ) throws -> Row? {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(values)
        return try statement.step() ? row(statement) : nil
    }

    public func prepare(_ sql: String) throws -> Statement {
        try Statement(connection: self, sql: sql)
    }

    /// The statement of `sql`, prepared on first use and kept for the connection's life.
    /// The caller resets it when done (`bind` also does), and must not use it twice at once.
    public func cachedStatement(_ sql: String) throws -> Statement {
        if let statement = statements[sql] { return statement }
        let statement = try prepare(sql)
        statements[sql] = statement
        return statement
    }

    /// How a write transaction takes its lock (https://sqlite.org/lang_transaction.html).
    public enum TransactionKind: String, Sendable {
        case deferred = "DEFERRED"
        /// Takes the write lock at once, so concurrent writers wait on `busy_timeout`
        /// instead of failing with SQLITE_BUSY when they upgrade a read.
        case immediate = "IMMEDIATE"
    }

    /// Runs `body` in a transaction: committed if it returns, rolled back if it throws.
    public func transaction<Result>(_ kind: TransactionKind = .immediate, _ body: () throws -> Result) throws -> Result {
        try execute("BEGIN \(kind.rawValue)", [])
        do {
            let result = try body()
            try execute("COMMIT", [])
            return result
        } catch {
            try? execute("ROLLBACK", [])  // The original error matters more; a failed rollback leaves nothing committed.
            throw error
        }
    }

    /// Milliseconds a statement waits for a lock before failing with SQLITE_BUSY.
    public func setBusyTimeout(milliseconds: Int32) {
        sqlite3_busy_timeout(handle, milliseconds)
    }

    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the most recent INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    func error(code: Int32, sql: String?) -> SQLiteError {
        SQLiteError(code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }
}

/// A connection belongs to one thread at a time; share it only through a lock that owns it.
@available(*, unavailable)
extension SQLiteConnection: Sendable {}
