import Accounts
import Catalog
import HTTPServer
import Images
import Mail
import UserData
import Walks

/// Everything the application needs to start, with the defaults `past-nyc serve` uses:
/// the one place they are written (the server's own in `HTTPServerConfiguration`).
public struct ApplicationConfiguration: Sendable {
    public var server = HTTPServerConfiguration()
    /// Where the SQLite files live (catalog and accounts); created if missing.
    public var dataDirectory = "./var"
    /// A PostgreSQL URL for the user data, shared by several instances; nil keeps it in
    /// SQLite under `dataDirectory`. The catalog is always local.
    public var databaseURL: String?
    /// Connections to PostgreSQL this instance keeps at most.
    public var databasePoolSize = PostgresUserDataStore.defaultPoolSize
    /// Where the catalog source files and the common-password list are read from.
    public var sourceDirectory = "./Data"
    /// The OpenAPI document served at `GET /openapi.yaml`.
    public var openAPIPath = "openapi.yaml"
    /// The web folder: the map served at `/`, the API reference at `/docs`, their files.
    public var webDirectory = "Web"
    /// A tile server's URL template (`https://tile.openstreetmap.org/{z}/{x}/{y}.png`) for
    /// the map's base layer; nil draws the boroughs' outlines only, and the map then asks
    /// nothing of any other server.
    public var mapTiles: String?
    /// `GET /sync?wait=` requests one user may hold at once; one more that would be
    /// held is `429`. 0 lifts the limit.
    public var maxHeldWaitsPerUser = 16
    /// The scrypt cost of new password hashes; tests lower it.
    public var passwordCost = ScryptCost.owasp
    /// The fair-use limits per client address of logins, password hashing and
    /// registrations (`--login-failures-per-client`, `--hashes-per-client`,
    /// `--registrations-per-hour`); the defaults are the contract's.
    public var accountLimits = AccountLimits()
    /// Accepted points per walk (`WalkRules.maximumPoints`); tests lower it to reach the cap quickly.
    public var maximumWalkPoints = WalkRules.maximumPoints
    /// Writes (POST, PUT, PATCH, DELETE with a token) one user makes a second on average,
    /// in bursts of up to `UserWriteLimiter.burstFactor` times as many, per instance;
    /// 0 lifts the limit (`--user-write-rate`).
    public var userWriteRate = 50
    /// `--image-origin`: fetch every source image from this base instead of its own host
    /// (a mirror, a test's origin); nil fetches the catalog's URLs as they are.
    public var imageOrigin: ImageOrigin?
    /// `--image-cache-size`: the most bytes the disk copy of the photographs keeps (4 GiB).
    public var imageCacheSize = 4 << 30
    /// The most a source gets to answer (the contract's 8 s); tests lower it.
    public var imageSourceTimeout = SourceFetcher.timeout
    /// `--metrics-listen`: the second listener, answering `GET /metrics` only (its `host`
    /// and `port`; the rest as for a listener with little to do); nil, none, and the
    /// event loops count nothing.
    public var metricsServer: HTTPServerConfiguration?

    /// The folder of the disk copy of the photographs, in `dataDirectory`.
    public static let imagesFolderName = "images"
    /// The folder of the data directory where whole packs are assembled (`PackFiles`):
    /// a cache of at most a quarter of `imageCacheSize`, emptied at every start.
    public static let packsFolderName = "image-packs"
    /// The SMTP relay and sender of the account mail (`--smtp-url`, `--mail-from`); nil
    /// sends none (setting an email is then refused, and a password reset sends nothing).
    public var mail: MailSettings?

    /// The list of common passwords refused as new passwords, in `sourceDirectory`.
    public static let commonPasswordsFileName = "common-passwords.txt"

    /// The files `sourceDirectory` must hold: the catalog's and the common passwords.
    public static let sourceFileNames = CatalogStore.sourceFileNames + [commonPasswordsFileName]

    public init() {
        // Up to 2 password hashes run and 4 more wait (`PasswordHasher`), each holding a
        // worker thread; 16 leaves the favorites and account reads 10 threads even during a
        // login flood. A request past an address's share of the hasher is answered at once.
        server.workerThreads = 16
    }
}
