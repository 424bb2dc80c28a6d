import Foundation
import SQLite
import TestSupportCore
import Testing

/// A fresh database path in its own temporary folder, which is removed once released:
/// the caller keeps it alive to the end of the test.
func temporaryDatabasePath() throws -> (path: String, folder: TemporaryDirectory) {
    let folder = try TemporaryDirectory(prefix: "sqlite-test")
    return (folder.file("test.sqlite"), folder)
}

@Suite struct SQLiteConnectionTests {
    @Test(arguments: [
        SQLiteValue.null, .integer(-42), .integer(Int64.max), .real(40.729510), .text("Manhattan Avenue & Milton Street"),
        .text("ünïcødé ✓"), .blob([0, 1, 2, 255]),
    ])
    func valuesRoundTrip(value: SQLiteValue) throws {
        let (path, folder) = try temporaryDatabasePath()
        defer { withExtendedLifetime(folder) {} }
        let connection = try SQLiteConnection(path: path)
        try connection.execute("CREATE TABLE t (v)")
        try connection.execute("INSERT INTO t (v) VALUES (?)", [value])
        let read = try connection.queryFirst("SELECT v FROM t") { row -> SQLiteValue in
            switch value {
            case .null: row.isNull(0) ? .null : .text(row.text(0))
            case .integer: .integer(row.int64(0))
            case .real: .real(row.double(0))
            case .text: .text(row.text(0))
            case .blob: .blob(row.blob(0))
            }
        }
        #expect(read == value)
    }

    @Test func transactionRollsBackWhenBodyThrows() throws {
        struct Abort: Error {}
        let (path, folder) = try temporaryDatabasePath()
        defer { withExtendedLifetime(folder) {} }
        let connection = try SQLiteConnection(path: path)
        try connection.execute("CREATE TABLE t (v INTEGER)")
        #expect(throws: Abort.self) {
            try connection.transaction {
                try connection.execute("INSERT INTO t (v) VALUES (?)", [1])
                throw Abort()
            }
        }
        try connection.transaction { try connection.execute("INSERT INTO t (v) VALUES (?)", [2]) }
        let values = try connection.query("SELECT v FROM t") { $0.int(0) }
        #expect(values == [2])
    }

    @Test func constraintViolationIsTypedAndNamesTheSQLButNotTheValues() throws {
        let (path, folder) = try temporaryDatabasePath()
        defer { withExtendedLifetime(folder) {} }
        let connection = try SQLiteConnection(path: path)
        try connection.execute("CREATE TABLE users (name TEXT UNIQUE)")
        let insert = "INSERT INTO users (name) VALUES (?)"
        try connection.execute(insert, ["secret-value"])
        do {
            try connection.execute(insert, ["secret-value"])
            Issue.record("a duplicate insert succeeded")
        } catch let error as SQLiteError {
            #expect(error.isConstraintViolation)
            #expect(error.sql == insert)
            #expect(!error.description.contains("secret-value"))
        }
    }

    @Test func syntaxErrorIsReportedWithItsSQL() throws {
        let (path, folder) = try temporaryDatabasePath()
        defer { withExtendedLifetime(folder) {} }
        let connection = try SQLiteConnection(path: path)
        #expect {
            _ = try connection.prepare("SELEKT 1")
        } throws: { error in
            (error as? SQLiteError)?.sql == "SELEKT 1"
        }
    }

    @Test func readOnlyConnectionRefusesWrites() throws {
        let (path, folder) = try temporaryDatabasePath()
        defer { withExtendedLifetime(folder) {} }
        try SQLiteConnection(path: path).execute("CREATE TABLE t (v)")
        let reader = try SQLiteConnection(path: path, mode: .readOnly)
        #expect(throws: SQLiteError.self) { try reader.execute("INSERT INTO t (v) VALUES (1)") }
    }

    @Test func openingAMissingFileReadOnlyFails() throws {
        let (path, folder) = try temporaryDatabasePath()
        defer { withExtendedLifetime(folder) {} }
        #expect(throws: SQLiteError.self) { _ = try SQLiteConnection(path: path, mode: .readOnly) }
    }
}
