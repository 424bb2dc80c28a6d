import API
import Accounts
import Foundation
import HTTPServer
import Logging
import Mail
import TestSupport
import UserData

/// One test's accounts: its own temporary directory and database, a hand-moved
/// clock, a fake catalog, and the routes, reached through the server's request pipeline;
/// with `Options.sendsMail`, an SMTP server of its own (`sink`) that the account mail
/// goes to, sent by an `OutboxSender` on the harness's clock.
final class AccountsHarness {
    private let temporary: TemporaryDirectory
    /// This harness's PostgreSQL database when the tests run against PostgreSQL.
    private let database: TestDatabase?
    var directory: String { temporary.path }
    let clock: TestClock
    let photos: FakePhotos
    private(set) var accounts: Accounts
    private(set) var router: Router
    /// What the routes refused, by rule.
    let refusals = Refusals(logger: Logger(label: "accounts-harness"))
    private let options: Options
    /// Where the mail goes, with `Options.sendsMail`.
    let sink: SMTPSink?
    private var sender: OutboxSender?

    /// What a test changes of the accounts and their routes.
    struct Options {
        var cost = ScryptCost.test
        var concurrentHashes = 2
        var queuedHashes = 4
        /// The fair-use limits per client address: the application's defaults unless a test lifts one.
        var limits = ApplicationConfiguration().accountLimits
        var maximumFavorites = Favorites.defaultMaximum
        var erasureSliceRows = Accounts.defaultErasureSliceRows
        var afterErasureSlice: @Sendable (ErasureSlice) throws -> Void = { _ in }
        /// `--user-write-rate`, on the harness's clock; nil lifts it.
        var userWriteRate: Int?
        /// Whether the accounts send mail, to the harness's `sink`.
        var sendsMail = false
    }

    static let commonPasswordsPath = PackageRoot.path + "/Data/common-passwords.txt"

    convenience init(
        cost: ScryptCost = .test, concurrentHashes: Int = 2, queuedHashes: Int = 4,
        limits: AccountLimits = ApplicationConfiguration().accountLimits,
        maximumFavorites: Int = Favorites.defaultMaximum
    ) throws {
        try self.init(
            Options(
                cost: cost, concurrentHashes: concurrentHashes, queuedHashes: queuedHashes, limits: limits,
                maximumFavorites: maximumFavorites))
    }

    init(_ options: Options) throws {
        self.options = options
        temporary = try TemporaryDirectory(prefix: "accounts-tests")
        clock = TestClock()
        photos = FakePhotos()
        database = try TestDatabase.make()
        sink = options.sendsMail ? try SMTPSink() : nil
        (accounts, sender) = try Self.openAccounts(temporary.path, database, options, clock, sink)
        router = Self.makeRouter(accounts, photos, options, clock, refusals)
    }

    deinit {
        sender?.stop()
    }

    /// Opens a new `Accounts` on the same directory or database (the old one is released, closing
    /// its connections), as a restarted server would, with `options` (by default the harness's).
    func reopen(cost: ScryptCost = .test, options: Options? = nil) throws {
        var options = options ?? self.options
        options.cost = cost
        sender?.stop()
        (accounts, sender) = try Self.openAccounts(temporary.path, database, options, clock, sink)
        router = Self.makeRouter(accounts, photos, options, clock, refusals)
    }

    /// The SQLite store's file (the tests that open it run on SQLite only).
    var databasePath: String { directory + "/accounts.sqlite" }

    /// Sends a request from `remoteAddress` through the server's request pipeline
    /// (parser, router, handler, problem rendering, encoder), without a socket.
    func send(
        _ method: HTTPMethod, _ path: String, query: [(String, String)] = [], json: [String: Any]? = nil,
        rawBody: [UInt8]? = nil, contentType: String? = "application/json", token: String? = nil,
        authorization: String? = nil, userAgent: String? = nil, from remoteAddress: String = "192.0.2.1"
    ) throws -> TestResponse {
        var headers: [(String, String)] = []
        var body: [UInt8] = rawBody ?? []
        if let json {
            body = Array(try JSONSerialization.data(withJSONObject: json))
        }
        if let contentType, !body.isEmpty { headers.append(("Content-Type", contentType)) }
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        if let authorization { headers.append(("Authorization", authorization)) }
        if let userAgent { headers.append(("User-Agent", userAgent)) }
        let client = InMemoryHTTPClient(router: router, remoteAddress: remoteAddress)
        return TestResponse(
            try client.request(
                method.rawValue, RawHTTPClient.target(path, query: query), headers: headers, body: body.isEmpty ? nil : body))
    }

    /// Registers `username` and returns its token.
    func register(
        _ username: String, password: String = "correct horse battery", from address: String = "192.0.2.1"
    ) throws -> String {
        let response = try send(.post, "/users", json: ["username": username, "password": password], from: address)
        guard response.status == 201 else { throw HarnessError.unexpectedStatus(response.status, response.detail) }
        return response.token
    }

    func login(_ username: String, password: String = "correct horse battery", from address: String = "192.0.2.1")
        throws -> TestResponse
    {
        try send(.post, "/users/login", json: ["username": username, "password": password], from: address)
    }

    enum HarnessError: Error {
        case unexpectedStatus(Int, String?)
    }

    /// The accounts, and their mail's sender when they send mail (to `sink`).
    private static func openAccounts(
        _ directory: String, _ database: TestDatabase?, _ options: Options, _ clock: TestClock, _ sink: SMTPSink?
    ) throws -> (Accounts, OutboxSender?) {
        let store = try UserDataLocation(dataDirectory: directory, databaseURL: database?.url).openStore()
        let outbox = sink.map {
            Outbox(settings: MailSettings(smtpURL: "smtp://127.0.0.1:\($0.port)", from: "no-reply@past-nyc.example"))
        }
        let accounts = try Accounts(
            store: store,
            commonPasswordsPath: commonPasswordsPath, passwordCost: options.cost,
            concurrentHashes: options.concurrentHashes, queuedHashes: options.queuedHashes, limits: options.limits,
            clock: { clock.now },
            maximumFavorites: options.maximumFavorites, erasureSliceRows: options.erasureSliceRows,
            afterErasureSlice: options.afterErasureSlice, mail: outbox)
        guard let outbox else { return (accounts, nil) }
        var logger = Logger(label: "accounts-harness")
        logger.logLevel = .critical
        let sender = OutboxSender(
            store: store, outbox: outbox, composer: accounts.mailComposer, logger: logger,
            clock: { Int64((clock.now.timeIntervalSince1970 * 1000).rounded(.down)) })
        try sender.start()
        return (accounts, sender)
    }

    private static func makeRouter(
        _ accounts: Accounts, _ photos: FakePhotos, _ options: Options, _ clock: TestClock, _ refusals: Refusals
    ) -> Router {
        // Nanoseconds since the harness's first moment: whole seconds moved stay exact.
        let start = clock.now
        let writeLimiter = options.userWriteRate.map { rate in
            UserWriteLimiter(rate: rate, accounts: accounts, refusals: refusals) {
                UInt64((clock.now.timeIntervalSince(start) * 1_000_000_000).rounded())
            }
        }
        var router = Router()
        AccountRoutes(accounts: accounts, photos: photos, writeLimiter: writeLimiter, refusals: refusals)
            .register(in: &router)
        return router
    }
}
