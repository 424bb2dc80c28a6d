import API
import Accounts
import Catalog
import Foundation
import HTTPServer
import Logging

/// The whole application, booted for real on 127.0.0.1 and an ephemeral port, with its
/// own temporary data directory and a cheap password cost. Shut down on release.
/// With `listening: false` it never opens a socket: tests talk to it through
/// `inMemoryClient()`, the same request pipeline without the network.
/// `Sendable`: immutable, so a suite may share one.
public final class TestApplication: Sendable {
    public let application: Application
    public let dataDirectory: TemporaryDirectory
    /// The application's own PostgreSQL database when the tests run against PostgreSQL
    /// (`TestDatabase.variable`); nil on SQLite.
    public let database: TestDatabase?

    /// - Parameters:
    ///   - maximumWalkPoints: accepted points per walk; lower it to reach the cap quickly.
    ///   - databaseURL: a PostgreSQL database of the test's own for the user data;
    ///     without it, a fresh `TestDatabase` or, by default, SQLite.
    public init(passwordCost: ScryptCost = .test, maximumWalkPoints: Int? = nil, databaseURL: String? = nil, listening: Bool = true) throws {
        dataDirectory = try TemporaryDirectory(prefix: "past-nyc-app")
        // Copying a catalog built once per process keeps each test's start fast; the
        // application still checks its data hashes and would rebuild a stale one.
        try FileManager.default.copyItem(
            atPath: try SharedCatalog.path(),
            toPath: dataDirectory.file(CatalogStore.databaseFileName))
        var configuration = ApplicationConfiguration()
        configuration.server.host = "127.0.0.1"
        configuration.server.port = 0
        configuration.dataDirectory = dataDirectory.path
        configuration.sourceDirectory = PackageRoot.path + "/Data"
        configuration.openAPIPath = PackageRoot.path + "/openapi.yaml"
        configuration.webDirectory = PackageRoot.path + "/Web"
        configuration.passwordCost = passwordCost
        database = databaseURL == nil ? try TestDatabase.make() : nil
        configuration.databaseURL = databaseURL ?? database?.url
        if let maximumWalkPoints { configuration.maximumWalkPoints = maximumWalkPoints }
        var logger = Logger(label: "test-application")
        logger.logLevel = .critical
        application = try Application(configuration: configuration, logger: logger)
        guard listening else { return }
        // What the executable does for itself: a client that hangs up must not kill the test process.
        signal(SIGPIPE, SIG_IGN)
        try application.start()
    }

    deinit {
        application.shutdown()
    }

    public var port: Int { application.port }

    /// A new keep-alive connection to the application.
    public func connect() throws -> RawHTTPClient {
        try RawHTTPClient(port: port)
    }

    /// A new connection to the application's routes without a socket.
    public func inMemoryClient() -> InMemoryHTTPClient {
        InMemoryHTTPClient(router: application.router)
    }
}

/// A catalog built from the real `Data/` once per test process, in a folder removed
/// when the process exits.
public enum SharedCatalog {
    /// The folder holding the built `catalog.sqlite`.
    public static let directory = NSTemporaryDirectory() + "/past-nyc-shared-catalog-\(getpid())"

    private static let built: Result<String, any Error> = Result {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        atexit {
            try? FileManager.default.removeItem(atPath: SharedCatalog.directory)  // Best effort at exit: nothing left to report to.
        }
        try CatalogStore.build(
            dataDirectory: directory, sourceDirectory: PackageRoot.path + "/Data", snapshot: CatalogSnapshot.gzip(for:))
        return directory + "/" + CatalogStore.databaseFileName
    }

    /// The path of the built catalog database.
    public static func path() throws -> String {
        try built.get()
    }

    private static let loaded: Result<PhotoCatalog, any Error> = Result {
        _ = try path()
        return try CatalogStore.openOrBuild(dataDirectory: directory, sourceDirectory: PackageRoot.path + "/Data")
    }

    /// The catalog itself, loaded once per process, for oracles in tests.
    public static func catalog() throws -> PhotoCatalog {
        try loaded.get()
    }
}
