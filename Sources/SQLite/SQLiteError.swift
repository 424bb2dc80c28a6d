import CSQLite

/// A failed SQLite call: the extended result code, SQLite's message and the SQL
/// that was running. Bound values are never included: they may be secrets.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// The extended result code (https://sqlite.org/rescode.html).
    public let code: Int32
    public let message: String
    public let sql: String?

    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// The primary result code: the low byte of the extended one.
    public var primaryCode: Int32 { code & 0xFF }

    /// A UNIQUE, PRIMARY KEY or other constraint was violated.
    public var isConstraintViolation: Bool { primaryCode == SQLITE_CONSTRAINT }

    /// The disk is full (SQLITE_FULL) or failed an I/O (SQLITE_IOERR): the write was not
    /// stored, and may succeed once space is freed; the database itself stays intact.
    public var isStorageFailure: Bool { primaryCode == SQLITE_FULL || primaryCode == SQLITE_IOERR }

    public var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " (in: \(sql))" }
        return text
    }
}
