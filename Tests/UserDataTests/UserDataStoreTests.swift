import Dispatch
import Synchronization
import Testing
import TestSupport

@testable import UserData

/// What every user-data store promises through `UserDataStore`, run on each store
/// (`StoreFixture.Kind.available`): values come back as they were bound, a refused
/// change is the one `UserDataError` and leaves nothing behind, grouped writes commit
/// together yet stand alone, migrations run once, and commits announce their changes.
@Suite struct UserDataStoreTests {
    /// Inserts a user and returns its ID.
    private static func insertUser(_ name: String, in connection: any UserDataConnection) throws -> Int64 {
        let id = try connection.queryFirst(
            "INSERT INTO users (username, username_key, password_hash, created_at) VALUES (?, ?, ?, ?) RETURNING id",
            [.text(name), .text(name.lowercased()), .text("not a hash"), .integer(1_700_000_000)]
        ) { $0.int64(0) }
        return try #require(id)
    }

    private static func userCount(_ store: any UserDataStore) throws -> Int {
        try store.read { connection in try connection.queryFirst("SELECT count(*) FROM users") { $0.int(0) } } ?? -1
    }

    @Test(arguments: StoreFixture.Kind.available)
    func valuesComeBackAsTheyWereBound(_ kind: StoreFixture.Kind) throws {
        let fixture = try StoreFixture(kind)
        let name = "Café ☕ 🗽 'quoted' \"double\" \\ back"
        let digest: [UInt8] = [0x00, 0xFF, 0x7F, 0x80, 0x0A, 0x27, 0x5C]
        try fixture.store.write { connection in
            let id = try Self.insertUser(name, in: connection)
            try connection.execute(
                "UPDATE users SET display_name = ?, home_latitude = ?, home_longitude = ? WHERE id = ?",
                [.null, .real(40.729510), .real(-73.99068), .integer(id)])
            try connection.execute(
                "INSERT INTO tokens (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
                [.blob(digest), .integer(id), .integer(-42), .integer(Int64.max)])
        }
        let user = try fixture.store.read { connection in
            try connection.queryFirst(
                "SELECT username, display_name, home_latitude, home_longitude FROM users WHERE username_key = ?",
                [.text(name.lowercased())]
            ) { row in
                (name: row.text(0), displayNameIsNull: row.isNull(1), displayName: row.optionalText(1),
                 latitude: row.double(2), longitude: row.double(3))
            }
        }
        let token = try fixture.store.read { connection in
            try connection.queryFirst("SELECT token_hash, created_at, expires_at FROM tokens WHERE token_hash = ?", [.blob(digest)]) {
                (digest: $0.blob(0), createdAt: $0.int64(1), expiresAt: $0.int64(2))
            }
        }
        #expect(user?.name == name)
        #expect(user?.displayNameIsNull == true && user?.displayName == nil)
        #expect(user?.latitude == 40.729510 && user?.longitude == -73.99068)
        #expect(token?.digest == digest)
        #expect(token?.createdAt == -42 && token?.expiresAt == Int64.max)
    }

    @Test(arguments: StoreFixture.Kind.available)
    func aRefusedChangeIsAConstraintViolationAndLeavesNothingBehind(_ kind: StoreFixture.Kind) throws {
        let fixture = try StoreFixture(kind)
        _ = try fixture.store.write { try Self.insertUser("taken", in: $0) }
        let refusals: [(String, @Sendable (any UserDataConnection) throws -> Void)] = [
            ("a duplicate unique key", { connection in
                _ = try Self.insertUser("first", in: connection)
                _ = try Self.insertUser("taken", in: connection)
            }),
            ("a foreign key to no row", { connection in
                _ = try Self.insertUser("second", in: connection)
                try connection.execute(
                    "INSERT INTO tokens (token_hash, user_id, created_at, expires_at) VALUES (?, ?, 0, 0)",
                    [.blob([1, 2, 3]), .integer(999_999)])
            }),
        ]
        for (what, body) in refusals {
            for grouped in [false, true] {
                let error = #expect(throws: UserDataError.self, "\(what), grouped: \(grouped)") {
                    if grouped { try fixture.store.groupWrite(body) } else { try fixture.store.write(body) }
                }
                #expect(error?.kind == .constraintViolation, "\(what), grouped: \(grouped)")
            }
        }
        #expect(try Self.userCount(fixture.store) == 1, "the refused writes' other rows were rolled back with them")
    }

    @Test(arguments: StoreFixture.Kind.available)
    func aStatementTheStoreCannotRunIsAFailure(_ kind: StoreFixture.Kind) throws {
        let fixture = try StoreFixture(kind)
        let error = #expect(throws: UserDataError.self) {
            try fixture.store.read { connection in try connection.execute("SELECT * FROM no_such_table") }
        }
        #expect(error?.kind == .failed)
        #expect(error?.detail.contains("no_such_table") == true, "the log says what failed")
    }

    /// Many writers at once: every third one fails after writing, and only its rows go;
    /// every caller gets its own outcome.
    @Test(arguments: StoreFixture.Kind.available)
    func groupedWritesStandAlone(_ kind: StoreFixture.Kind) throws {
        let fixture = try StoreFixture(kind)
        _ = try fixture.store.write { try Self.insertUser("taken", in: $0) }
        let writers = 120
        let outcomes = Mutex<[Int: Result<String, UserDataError>]>([:])
        DispatchQueue.concurrentPerform(iterations: writers) { n in
            let outcome: Result<String, UserDataError>
            do {
                let name = try fixture.store.groupWrite { connection in
                    let id = try Self.insertUser("writer \(n)", in: connection)
                    if n % 3 == 0 { _ = try Self.insertUser("taken", in: connection) }
                    return try connection.queryFirst("SELECT username FROM users WHERE id = ?", [.integer(id)]) { $0.text(0) }
                        ?? "missing"
                }
                outcome = .success(name)
            } catch let error as UserDataError {
                outcome = .failure(error)
            } catch {
                outcome = .failure(UserDataError(.failed, detail: "\(error)"))
            }
            outcomes.withLock { $0[n] = outcome }
        }
        let results = outcomes.withLock { $0 }
        #expect(results.count == writers)
        for (n, outcome) in results {
            switch outcome {
            case .success(let name): #expect(n % 3 != 0 && name == "writer \(n)", "writer \(n)")
            case .failure(let error): #expect(n % 3 == 0 && error.kind == .constraintViolation, "writer \(n): \(error)")
            }
        }
        let stored = try fixture.store.read { connection in
            try connection.query("SELECT username FROM users WHERE username LIKE 'writer %'") { $0.text(0) }
        }
        #expect(Set(stored) == Set((0..<writers).filter { $0 % 3 != 0 }.map { "writer \($0)" }))
    }

    /// A store opened again on the same data migrates nothing twice and keeps the rows.
    @Test(arguments: StoreFixture.Kind.available)
    func migrationsRunOnceAndKeepTheData(_ kind: StoreFixture.Kind) throws {
        let fixture = try StoreFixture(kind)
        _ = try fixture.store.write { try Self.insertUser("kept", in: $0) }
        let reopened = try fixture.reopen()
        let versions = try reopened.read { connection in
            switch kind {
            case .sqlite: try connection.query("PRAGMA user_version") { $0.int(0) }
            case .postgres: try connection.query("SELECT version FROM schema_version") { $0.int(0) }
            }
        }
        let expected =
            switch kind {
            case .sqlite: SQLiteUserDataSchema.migrator.migrations.count
            case .postgres: PostgresUserDataSchema.migrator.migrations.count
            }
        #expect(versions == [expected], "every migration applied, once")
        #expect(try Self.userCount(reopened) == 1)
    }

    /// A change announced in a write reaches the store's feed once the write commits
    /// (on PostgreSQL through another connection's LISTEN, so the test waits for it).
    /// That connection opens on its own thread after the store does, and a notification
    /// committed before its LISTEN reaches nobody (it then publishes "anyone"): the
    /// test writes again until a write is heard.
    @Test(arguments: StoreFixture.Kind.available)
    func aCommittedChangeIsAnnounced(_ kind: StoreFixture.Kind) throws {
        let fixture = try StoreFixture(kind)
        let heard = DispatchSemaphore(value: 0)
        fixture.store.changeFeed.listen { users in
            if case .some(let ids) = users, ids.contains(7) { heard.signal() }
        }
        var isHeard = false
        for _ in 0..<30 where !isHeard {
            try fixture.store.groupWrite { connection in try connection.announceChange(ofUser: 7) }
            isHeard = heard.wait(timeout: .now() + .seconds(1)) == .success
        }
        #expect(isHeard)
    }

    @Test func theConfigurationChoosesTheStore() throws {
        #expect(UserDataLocation(dataDirectory: "/data", databaseURL: nil) == .sqlite(dataDirectory: "/data"))
        #expect(
            UserDataLocation(dataDirectory: "/data", databaseURL: "postgresql://db/past", poolSize: 3)
                == .postgres(url: "postgresql://db/past", poolSize: 3))
        let directory = try TemporaryDirectory(prefix: "user-data")
        #expect(try UserDataLocation(dataDirectory: directory.path, databaseURL: nil).openStore() is SQLiteUserDataStore)
    }

    /// Nothing listens on port 1: the store cannot be reached, which a client may retry.
    @Test func anUnreachableSharedStoreIsUnavailable() {
        let error = #expect(throws: UserDataError.self) {
            _ = try UserDataLocation.postgres(url: "postgresql://past@127.0.0.1:1/past", poolSize: 1).openStore()
        }
        #expect(error?.kind == .unavailable(retryAfterSeconds: 1))
    }
}
