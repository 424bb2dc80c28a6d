import Foundation
import SQLite
import TestSupportCore
import Testing

@Suite struct MigratorTests {
    let migrations = [
        "CREATE TABLE a (id INTEGER PRIMARY KEY)",
        "ALTER TABLE a ADD COLUMN name TEXT",
    ]

    @Test func appliesEachMigrationOnceAndRecordsTheVersion() throws {
        let (path, folder) = try temporaryDatabasePath()
        defer { withExtendedLifetime(folder) {} }
        let connection = try SQLiteConnection(path: path)
        #expect(try Migrator(migrations: Array(migrations.prefix(1))).migrate(connection) == 1)
        #expect(try Migrator(migrations: migrations).migrate(connection) == 2)
        #expect(try Migrator(migrations: migrations).migrate(connection) == 2)
        try connection.execute("INSERT INTO a (name) VALUES (?)", ["x"])
        #expect(try connection.queryFirst("PRAGMA user_version") { $0.int(0) } == 2)
    }

    @Test func aFailingMigrationLeavesThePreviousVersion() throws {
        let (path, folder) = try temporaryDatabasePath()
        defer { withExtendedLifetime(folder) {} }
        let connection = try SQLiteConnection(path: path)
        let broken = migrations + ["CREATE TABLE b (x); THIS IS NOT SQL"]
        #expect(throws: SQLiteError.self) { try Migrator(migrations: broken).migrate(connection) }
        #expect(try connection.queryFirst("PRAGMA user_version") { $0.int(0) } == 2)
        let tables = try connection.query("SELECT name FROM sqlite_master WHERE type = 'table'") { $0.text(0) }
        #expect(tables == ["a"])
    }

    @Test func refusesADatabaseFromANewerBuild() throws {
        let (path, folder) = try temporaryDatabasePath()
        defer { withExtendedLifetime(folder) {} }
        let connection = try SQLiteConnection(path: path)
        try connection.execute("PRAGMA user_version = 7")
        #expect(throws: Migrator.MigrationError.databaseIsNewer(version: 7, known: 2)) {
            try Migrator(migrations: migrations).migrate(connection)
        }
    }
}
