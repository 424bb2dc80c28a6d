import Accounts
import HTTPServer
import Walks

/// Everything the application needs to start, with the defaults `past-nyc serve` uses.
public struct ApplicationConfiguration: Sendable {
    public var server = HTTPServerConfiguration()
    /// Where the SQLite files live (catalog and accounts); created if missing.
    public var dataDirectory = "var"
    /// A PostgreSQL URL for the user data, shared by several instances; nil keeps it in
    /// SQLite under `dataDirectory`. The catalog is always local.
    public var databaseURL: String?
    /// Connections to PostgreSQL this instance keeps at most.
    public var databasePoolSize = PostgresUserDataStore.defaultPoolSize
    /// Where the catalog source files and the common-password list are read from.
    public var sourceDirectory = "Data"
    /// The OpenAPI document served at `GET /openapi.yaml`.
    public var openAPIPath = "openapi.yaml"
    /// The scrypt cost of new password hashes; tests lower it.
    public var passwordCost = ScryptCost.owasp
    /// Accepted points per walk (`WalkRules.maximumPoints`); tests lower it to reach the cap quickly.
    public var maximumWalkPoints = WalkRules.maximumPoints

    public init() {
        // Up to 2 password hashes run and 4 more wait, each holding a worker thread;
        // 16 leaves the favorites and account reads 10 threads even during a login flood.
        server.workerThreads = 16
    }
}
