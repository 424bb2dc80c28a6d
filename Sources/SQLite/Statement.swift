import CSQLite

/// A prepared statement (https://sqlite.org/c3ref/stmt.html), finalized on deinit.
///
/// Not `Sendable`: it belongs to its connection, which is used by one thread at a time.
public final class Statement {
    let handle: OpaquePointer
    public let sql: String
    private unowned let connection: SQLiteConnection

    init(connection: SQLiteConnection, sql: String) throws {
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v3(connection.handle, sql, -1, 0, &handle, nil)
        guard code == SQLITE_OK, let handle else {
            throw connection.error(code: code, sql: sql)
        }
        self.handle = handle
        self.sql = sql
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Clears previous bindings and binds `values` to parameters 1, 2, …
    public func bind(_ values: [SQLiteValue]) throws {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null:
                code = sqlite3_bind_null(handle, index)
            case .integer(let number):
                code = sqlite3_bind_int64(handle, index, number)
            case .real(let number):
                code = sqlite3_bind_double(handle, index, number)
            case .text(let text):
                code = sqlite3_bind_text(handle, index, text, -1, sqliteTransient)
            case .blob(let bytes) where bytes.isEmpty:
                // An empty array may have no address, and a blob bound from a null pointer is NULL.
                code = sqlite3_bind_zeroblob(handle, index, 0)
            case .blob(let bytes):
                code = bytes.withUnsafeBytes { buffer in
                    sqlite3_bind_blob(handle, index, buffer.baseAddress, Int32(buffer.count), sqliteTransient)
                }
            }
            guard code == SQLITE_OK else { throw connection.error(code: code, sql: sql) }
        }
    }

    /// Advances to the next row; `false` when the statement is done.
    @discardableResult
    public func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(code: code, sql: sql)
        }
    }

    /// Rewinds the statement so it can run again (bindings are kept).
    public func reset() {
        sqlite3_reset(handle)
    }

    public func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    public func int64(_ column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    public func int(_ column: Int32) -> Int {
        Int(sqlite3_column_int64(handle, column))
    }

    public func double(_ column: Int32) -> Double {
        sqlite3_column_double(handle, column)
    }

    public func text(_ column: Int32) -> String {
        guard let pointer = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    public func optionalText(_ column: Int32) -> String? {
        isNull(column) ? nil : text(column)
    }

    public func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let pointer = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}

/// `SQLITE_TRANSIENT`: SQLite copies the bound bytes before the call returns.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A statement belongs to its connection's thread; it never crosses to another.
@available(*, unavailable)
extension Statement: Sendable {}
