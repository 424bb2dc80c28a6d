@testable import Accounts
@testable import UserData
import Dispatch
import Foundation
import Synchronization
import Testing
import TestSupport

/// What the PostgreSQL store promises to several instances sharing one database:
/// migrations that do not race, failed logins counted across instances, and a
/// revoked token refused by every instance at once. Each "instance" is an `Accounts`
/// with its own connection pool on the same database.
@Suite(.enabled(if: TestDatabase.serverURL != nil, "needs PostgreSQL: set PAST_NYC_TEST_DATABASE_URL"))
struct SharedStoreTests {
    static let commonPasswordsPath = PackageRoot.path + "/Data/common-passwords.txt"
    static let password = "correct horse battery"

    private static func instance(_ database: TestDatabase, clock: TestClock) throws -> Accounts {
        try Accounts(
            store: try PostgresUserDataStore(url: database.url, poolSize: 2), commonPasswordsPath: commonPasswordsPath,
            passwordCost: .test, clock: { clock.now })
    }

    @Test func instancesStartingTogetherMigrateOnce() throws {
        let database = try #require(try TestDatabase.make())
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            do {
                _ = try PostgresUserDataStore(url: database.url, poolSize: 1)
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let store = try PostgresUserDataStore(url: database.url, poolSize: 1)
        let versions = try store.read { connection in
            try connection.query("SELECT version FROM schema_version") { $0.int(0) }
        }
        #expect(versions == [PostgresUserDataSchema.migrator.migrations.count], "every migration applied, once")
    }

    @Test func failedLoginsCountAcrossInstances() throws {
        let database = try #require(try TestDatabase.make())
        let clock = TestClock()
        let first = try Self.instance(database, clock: clock)
        let second = try Self.instance(database, clock: clock)
        _ = try first.register(username: "shared", password: Self.password, clientAddress: "192.0.2.1")
        for attempt in 0..<5 {
            let instance = attempt.isMultiple(of: 2) ? first : second
            #expect(throws: AccountsError.invalidCredentials) {
                try instance.login(username: "shared", password: "guess guess guess", clientAddress: "203.0.113.9")
            }
        }
        for instance in [first, second] {
            #expect(throws: AccountsError.tooManyFailedLogins(retryAfterSeconds: 900)) {
                try instance.login(username: "shared", password: Self.password, clientAddress: "203.0.113.9")
            }
        }
        clock.advance(by: 900)
        _ = try second.login(username: "shared", password: Self.password, clientAddress: "203.0.113.9")
    }

    @Test func failedLoginsOfOneAddressCountAcrossInstancesWhateverTheUsernames() throws {
        let database = try #require(try TestDatabase.make())
        let clock = TestClock()
        let first = try Self.instance(database, clock: clock)
        let second = try Self.instance(database, clock: clock)
        _ = try first.register(username: "bystander", password: Self.password, clientAddress: "192.0.2.1")
        for attempt in 0..<20 {
            let instance = attempt.isMultiple(of: 2) ? first : second
            #expect(throws: AccountsError.invalidCredentials) {
                try instance.login(username: "victim\(attempt % 5)", password: "guess guess guess", clientAddress: "203.0.113.9")
            }
        }
        for instance in [first, second] {
            #expect(throws: AccountsError.tooManyFailedLoginsFromClient(retryAfterSeconds: 900)) {
                try instance.login(username: "bystander", password: Self.password, clientAddress: "203.0.113.9")
            }
            _ = try instance.login(username: "bystander", password: Self.password, clientAddress: "203.0.113.10")
        }
        clock.advance(by: 900)
        _ = try first.login(username: "bystander", password: Self.password, clientAddress: "203.0.113.9")
        let rows = try first.database.read { connection in
            try connection.queryFirst("SELECT count(*) FROM login_failures", []) { $0.int(0) }
        }
        #expect(rows == 20, "pruned as new failures arrive, not before")
        #expect(throws: AccountsError.invalidCredentials) {
            try second.login(username: "victim0", password: "guess guess guess", clientAddress: "203.0.113.9")
        }
        let pruned = try first.database.read { connection in
            try connection.queryFirst("SELECT count(*) FROM login_failures", []) { $0.int(0) }
        }
        #expect(pruned == 1, "the failures that left the window were deleted")
    }

    @Test func registrationsOfOneAddressCountAcrossInstances() throws {
        let database = try #require(try TestDatabase.make())
        let clock = TestClock()
        let first = try Self.instance(database, clock: clock)
        let second = try Self.instance(database, clock: clock)
        for number in 0..<20 {
            let instance = number.isMultiple(of: 2) ? first : second
            _ = try instance.register(username: "member\(number)", password: Self.password, clientAddress: "203.0.113.20")
        }
        for instance in [first, second] {
            #expect(throws: AccountsError.tooManyRegistrations(retryAfterSeconds: 3600)) {
                try instance.register(username: "one-more", password: Self.password, clientAddress: "203.0.113.20")
            }
        }
        _ = try second.register(username: "neighbour", password: Self.password, clientAddress: "203.0.113.21")
        clock.advance(by: 3600)
        _ = try first.register(username: "one-more", password: Self.password, clientAddress: "203.0.113.20")
        let rows = try first.database.read { connection in
            try connection.queryFirst("SELECT count(*) FROM registrations", []) { $0.int(0) }
        }
        #expect(rows == 1, "the registrations that left the hour were deleted")
    }

    @Test func aTokenRevokedOnOneInstanceIsRefusedByTheOthersAtOnce() throws {
        let database = try #require(try TestDatabase.make())
        let clock = TestClock()
        let instances = try (0..<3).map { _ in try Self.instance(database, clock: clock) }
        let session = try instances[0].register(username: "roamer", password: Self.password, clientAddress: "192.0.2.1")
        for instance in instances { _ = try instance.sessions.authenticate(token: session.token) }
        try instances[1].sessions.logout(try instances[1].sessions.authenticate(token: session.token))
        for instance in instances {
            #expect(throws: AccountsError.invalidToken) { try instance.sessions.authenticate(token: session.token) }
        }
    }

    private static func save(_ instance: Accounts, token: String, photoID: String) throws -> FavoriteSave {
        try Result.awaiting { instance.favorites.save(token: token, photoID: photoID, completion: $0) }
    }

    /// `Favorites.save(token:…)`, one statement on PostgreSQL: the token checked in it,
    /// the favorite saved once at its first time, its change-log rows in order.
    @Test func aFavoriteSavedByTokenChecksTheTokenAndLogsTheChange() throws {
        let database = try #require(try TestDatabase.make())
        let clock = TestClock()
        let saver = try Self.instance(database, clock: clock)
        let reader = try Self.instance(database, clock: clock)
        let session = try saver.register(username: "collector", password: Self.password, clientAddress: "192.0.2.1")
        let user = try reader.sessions.authenticate(token: session.token)
        let first = try Self.save(saver, token: session.token, photoID: "p1")
        #expect(first == FavoriteSave(favorite: Favorite(photoID: "p1", savedAt: clock.now), created: true))
        clock.advance(by: 60)
        let again = try Self.save(saver, token: session.token, photoID: "p1")
        #expect(again == FavoriteSave(favorite: first.favorite, created: false), "saved once, at its first time")
        #expect(try reader.changeLog.changes(user, since: nil, limit: 10).changes == [
            LoggedChange(kind: .favorite, walkID: "", photoID: "p1", deleted: false),
            LoggedChange(kind: .profile, walkID: "", photoID: "", deleted: false),
        ])
        for token in ["not a token", String(session.token.reversed())] {
            #expect(throws: AccountsError.invalidToken) { try Self.save(saver, token: token, photoID: "p2") }
        }
        clock.advance(by: TimeInterval(Sessions.idleLifetime))
        #expect(throws: AccountsError.invalidToken) { try Self.save(saver, token: session.token, photoID: "p2") }
        #expect(try reader.profiles.user(user).favoriteCount == 1, "a refused save wrote nothing")
    }

    @Test func concurrentSavesThroughSeveralInstancesEachLandOnce() throws {
        let database = try #require(try TestDatabase.make())
        let clock = TestClock()
        let instances = try (0..<3).map { _ in try Self.instance(database, clock: clock) }
        let session = try instances[0].register(username: "hoarder", password: Self.password, clientAddress: "192.0.2.1")
        let outcomes = Mutex<[Result<FavoriteSave, any Error>]>([])
        DispatchQueue.concurrentPerform(iterations: 24) { index in
            let outcome = Result { try Self.save(instances[index % 3], token: session.token, photoID: "p\(index % 8)") }
            outcomes.withLock { $0.append(outcome) }
        }
        let saves = try outcomes.withLock { $0 }.map { try $0.get() }
        #expect(saves.filter(\.created).count == 8, "each photo created once")
        let user = try instances[1].sessions.authenticate(token: session.token)
        let changes = try instances[2].changeLog.changes(user, since: nil, limit: 100).changes
        #expect(Set(changes.filter { $0.kind == .favorite }.map(\.photoID)) == Set((0..<8).map { "p\($0)" }))
        #expect(changes.count == 9 && changes.last?.kind == .profile, "each favorite once, the profile last")
    }
}
