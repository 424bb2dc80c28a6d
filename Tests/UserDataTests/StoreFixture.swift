import TestSupport
import UserData

/// One user-data store under test, at a location of its own: a temporary directory
/// for SQLite, a fresh schema of the test server for PostgreSQL. Both go when the
/// fixture is released: tests reach the store through it, so it lives as long.
struct StoreFixture {
    enum Kind: String, Sendable, CustomStringConvertible {
        case sqlite, postgres

        var description: String { rawValue }

        /// SQLite always; PostgreSQL too when `PAST_NYC_TEST_DATABASE_URL` names a server.
        static var available: [Kind] { TestDatabase.serverURL == nil ? [.sqlite] : [.sqlite, .postgres] }
    }

    let store: any UserDataStore
    private let location: UserDataLocation
    private let directory: TemporaryDirectory
    /// The PostgreSQL schema, kept until the fixture is released.
    private let database: TestDatabase?

    init(_ kind: Kind) throws {
        directory = try TemporaryDirectory(prefix: "user-data")
        switch kind {
        case .sqlite:
            database = nil
            location = .sqlite(dataDirectory: directory.path)
        case .postgres:
            guard let database = try TestDatabase.make() else { throw FixtureError.noPostgreSQLServer }
            self.database = database
            location = .postgres(url: database.url, poolSize: 4)
        }
        store = try location.openStore()
    }

    enum FixtureError: Error {
        case noPostgreSQLServer
    }

    /// Opens another store at the fixture's location, as another instance (or a
    /// restart) would.
    func reopen() throws -> any UserDataStore {
        try location.openStore()
    }
}
