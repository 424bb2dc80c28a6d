import API
import Accounts
import Catalog
import Foundation
import HTTPServer
import Logging

/// The whole application, booted for real on 127.0.0.1 and an ephemeral port, with its
/// own temporary data directory (its user data) and a cheap password cost, over the
/// catalog and the rest no request changes, built once per process (`SharedCatalog`).
/// Shut down on release.
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
    ///   - clock: the accounts' time (tokens expire by it); the system's by default.
    ///   - configure: changes to the configuration, e.g. a limit lifted or lowered.
    public init(
        passwordCost: ScryptCost = .test, maximumWalkPoints: Int? = nil, databaseURL: String? = nil, listening: Bool = true,
        clock: TestClock? = nil, configure: (inout ApplicationConfiguration) -> Void = { _ in }
    ) throws {
        dataDirectory = try TemporaryDirectory(prefix: "past-nyc-app")
        var configuration = SharedCatalog.configuration(dataDirectory: dataDirectory.path)
        configuration.passwordCost = passwordCost
        database = databaseURL == nil ? try TestDatabase.make() : nil
        configuration.databaseURL = databaseURL ?? database?.url
        if let maximumWalkPoints { configuration.maximumWalkPoints = maximumWalkPoints }
        configure(&configuration)
        var logger = Logger(label: "test-application")
        logger.logLevel = .critical
        // Building the read-only content takes seconds in a debug build; it is built once.
        let now: @Sendable () -> Date = if let clock { { clock.now } } else { { Date() } }
        application = try Application(
            configuration: configuration, logger: logger, content: try SharedCatalog.content(), clock: now)
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
/// when the process exits, and what the applications of the tests serve from it,
/// computed once.
public enum SharedCatalog {
    /// The folder holding the built `catalog.sqlite`.
    public static let directory = NSTemporaryDirectory() + "/past-nyc-shared-catalog-\(getpid())"

    private static let built: Result<String, any Error> = Result {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        atexit {
            try? FileManager.default.removeItem(atPath: SharedCatalog.directory)  // Best effort at exit: nothing left to report to.
        }
        try CatalogStore.build(
            dataDirectory: directory, sourceDirectory: PackageRoot.path + "/Data", snapshot: CatalogSnapshot.blocks(for:))
        return directory + "/" + CatalogStore.databaseFileName
    }

    /// The path of the built catalog database.
    public static func path() throws -> String {
        try built.get()
    }

    /// Copies the built catalog into `dataDirectory` (which exists), so that a server
    /// started on it opens the catalog instead of importing `Data/` again.
    public static func copy(into dataDirectory: String) throws {
        try FileManager.default.copyItem(
            atPath: try path(), toPath: CatalogStore.databasePath(dataDirectory))
    }

    /// The configuration of an application of the tests: 127.0.0.1 and a port the
    /// kernel picks, the repository's folders, `dataDirectory` for the data.
    public static func configuration(dataDirectory: String) -> ApplicationConfiguration {
        var configuration = ApplicationConfiguration()
        configuration.server.host = "127.0.0.1"
        configuration.server.port = 0
        configuration.dataDirectory = dataDirectory
        configuration.sourceDirectory = PackageRoot.path + "/Data"
        configuration.openAPIPath = PackageRoot.path + "/openapi.yaml"
        configuration.webDirectory = PackageRoot.path + "/Web"
        return configuration
    }

    private static let readOnly: Result<ReadOnlyContent, any Error> = Result {
        _ = try path()
        var logger = Logger(label: "test-application")
        logger.logLevel = .critical
        return try ReadOnlyContent(configuration: configuration(dataDirectory: directory), logger: logger)
    }

    /// What every `TestApplication` of the process serves: the catalog and what start-up computes from it.
    public static func content() throws -> ReadOnlyContent {
        try readOnly.get()
    }

    /// The catalog itself, loaded once per process, for oracles in tests.
    public static func catalog() throws -> PhotoCatalog {
        try content().catalog
    }
}
