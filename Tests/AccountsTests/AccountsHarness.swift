import API
import Accounts
import Foundation
import HTTPServer
import Logging
import TestSupport
import UserData

/// One test's accounts: its own temporary directory and database, a hand-moved
/// clock, a fake catalog, and the routes, reached through the server's request pipeline.
final class AccountsHarness {
    private let temporary: TemporaryDirectory
    /// This harness's PostgreSQL database when the tests run against PostgreSQL.
    private let database: TestDatabase?
    var directory: String { temporary.path }
    let clock: TestClock
    let photos: FakePhotos
    private(set) var accounts: Accounts
    private(set) var router: Router

    static let commonPasswordsPath = PackageRoot.path + "/Data/common-passwords.txt"

    init(cost: ScryptCost = .test, concurrentHashes: Int = 2, queuedHashes: Int = 4) throws {
        temporary = try TemporaryDirectory(prefix: "accounts-tests")
        clock = TestClock()
        photos = FakePhotos()
        database = try TestDatabase.make()
        accounts = try Self.openAccounts(temporary.path, database, cost, concurrentHashes, queuedHashes, clock)
        router = Self.makeRouter(accounts, photos)
    }

    /// Opens a new `Accounts` on the same directory or database (the old one is released, closing
    /// its connections), as a restarted server would.
    func reopen(cost: ScryptCost = .test) throws {
        accounts = try Self.openAccounts(temporary.path, database, cost, 2, 4, clock)
        router = Self.makeRouter(accounts, photos)
    }

    /// The SQLite store's file (the tests that open it run on SQLite only).
    var databasePath: String { directory + "/accounts.sqlite" }

    /// Sends a request from `remoteAddress` through the server's request pipeline
    /// (parser, router, handler, problem rendering, encoder), without a socket.
    func send(
        _ method: HTTPMethod, _ path: String, query: [(String, String)] = [], json: [String: Any]? = nil,
        rawBody: [UInt8]? = nil, contentType: String? = "application/json", token: String? = nil,
        authorization: String? = nil, from remoteAddress: String = "192.0.2.1"
    ) throws -> TestResponse {
        var headers: [(String, String)] = []
        var body: [UInt8] = rawBody ?? []
        if let json {
            body = Array(try JSONSerialization.data(withJSONObject: json))
        }
        if let contentType, !body.isEmpty { headers.append(("Content-Type", contentType)) }
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        if let authorization { headers.append(("Authorization", authorization)) }
        let client = InMemoryHTTPClient(router: router, remoteAddress: remoteAddress)
        return TestResponse(
            try client.request(
                method.rawValue, RawHTTPClient.target(path, query: query), headers: headers, body: body.isEmpty ? nil : body))
    }

    /// Registers `username` and returns its token.
    func register(_ username: String, password: String = "correct horse battery") throws -> String {
        let response = try send(.post, "/users", json: ["username": username, "password": password])
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

    private static func openAccounts(
        _ directory: String, _ database: TestDatabase?, _ cost: ScryptCost, _ concurrentHashes: Int,
        _ queuedHashes: Int, _ clock: TestClock
    ) throws -> Accounts {
        return try Accounts(
            store: UserDataLocation(dataDirectory: directory, databaseURL: database?.url).openStore(), commonPasswordsPath: commonPasswordsPath, passwordCost: cost,
            concurrentHashes: concurrentHashes, queuedHashes: queuedHashes, clock: { clock.now })
    }

    private static func makeRouter(_ accounts: Accounts, _ photos: FakePhotos) -> Router {
        var router = Router()
        AccountRoutes(accounts: accounts, photos: photos, writeLimiter: nil, refusals: Refusals(logger: Logger(label: "test")))
            .register(in: &router)
        return router
    }
}
