import Foundation
import Postgres

/// A fresh, empty PostgreSQL database for one test, on the server named by
/// `PAST_NYC_TEST_DATABASE_URL` (e.g. the one `scripts/postgres.sh start` prints):
/// a schema of its own, which the URL puts first on the connections' `search_path`,
/// so every table the test's store creates lands there; dropped on release. (A
/// schema, not a `CREATE DATABASE`: that copies a template and takes seconds, a
/// schema milliseconds.) Without that variable the tests use SQLite, the default
/// store, and `TestDatabase.make()` returns nil.
public final class TestDatabase: Sendable {
    /// The environment variable that switches the tests to PostgreSQL.
    public static let variable = "PAST_NYC_TEST_DATABASE_URL"

    /// The server's URL when the tests run against PostgreSQL.
    public static var serverURL: String? {
        guard let url = ProcessInfo.processInfo.environment[variable], !url.isEmpty else { return nil }
        return url
    }

    /// True when the tests run against SQLite: the condition of the tests that open
    /// `accounts.sqlite` themselves.
    public static var usesSQLite: Bool { serverURL == nil }

    /// The URL of this test's own database.
    public let url: String
    private let serverURL: String
    private let name: String
    private let isolation: Isolation

    /// Why a database could not be made.
    enum MakeError: Error {
        /// `PAST_NYC_TEST_DATABASE_URL` is not a URL whose path can name another database.
        case unreadableServerURL
    }

    /// What a test's database is on the shared server.
    private enum Isolation {
        /// A schema: tables apart, but `NOTIFY` channels and advisory locks shared with
        /// every other test's.
        case schema
        /// A database: nothing shared.
        case database
    }

    /// A new database when the tests run against PostgreSQL, else nil.
    public static func make() throws -> TestDatabase? {
        guard let serverURL else { return nil }
        return try TestDatabase(serverURL: serverURL, isolation: .schema)
    }

    /// A whole database of its own, for a test that listens on the user data's `NOTIFY`
    /// channel and must hear only its own store (a channel is one database's, heard in
    /// every schema of it): slower to make than `make()`'s schema.
    public static func makeUnshared() throws -> TestDatabase? {
        guard let serverURL else { return nil }
        return try TestDatabase(serverURL: serverURL, isolation: .database)
    }

    private init(serverURL: String, isolation: Isolation) throws {
        self.serverURL = serverURL
        self.isolation = isolation
        name = "past_nyc_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        // An identifier cannot be a parameter; the name is ours, letters, digits and `_`.
        let server = try PostgresConnection(url: serverURL, connectTimeout: .seconds(10))
        switch isolation {
        case .schema:
            try server.execute("CREATE SCHEMA \(name)")
            url = serverURL + (serverURL.contains("?") ? "&" : "?") + "options=-csearch_path%3D" + name
        case .database:
            try server.execute("CREATE DATABASE \(name)")
            guard var components = URLComponents(string: serverURL) else { throw MakeError.unreadableServerURL }
            components.path = "/" + name
            guard let databaseURL = components.string else { throw MakeError.unreadableServerURL }
            url = databaseURL
        }
    }

    deinit {
        // Best effort: the throw-away server goes away with its schemas and databases anyway.
        let server = try? PostgresConnection(url: serverURL, connectTimeout: .seconds(10))
        switch isolation {
        case .schema: _ = try? server?.execute("DROP SCHEMA IF EXISTS \(name) CASCADE")
        case .database: _ = try? server?.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
        }
    }
}
