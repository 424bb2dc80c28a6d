import Foundation
import Mail
import UserData

/// The accounts: users, their credentials and everything that hangs off them, stored
/// in a `UserDataStore` (`<dataDirectory>/accounts.sqlite` by default, or PostgreSQL).
/// This type holds the users' lifecycle (registration, login, password, reset,
/// deletion) and composes one type per concern, each in its own file: `sessions`
/// (tokens), `favorites`, `recents`, `profiles`, `changeLog` (`GET /sync`), `email`
/// and `passwordReset`.
///
/// Every method may block (database I/O, fsync, scrypt): call them off the event loop.
/// Every write goes through the store's group commit (`UserDataStore.groupWrite`); the
/// frequent ones (favorites, recents, profile) answer through a completion, so their
/// callers need not hold a thread while their group commits. The erasures (reset,
/// account deletion) are several group commits in turn (`UserDataErasure`).
/// Failures the client caused are `AccountsError`s; the store's own are
/// `UserDataError`s (`unavailable` when a shared store cannot be reached, else a
/// server fault).
public final class Accounts: Sendable {
    /// Live tokens a user may hold: a login past that revokes the least recently used.
    public static let tokensPerUser = 100

    public let hasher: PasswordHasher
    /// The store of users and of what hangs off them (favorites here; walks in
    /// their own module), for the modules that keep rows in it.
    public let database: any UserDataStore
    /// What people saved lately, for `GET /photos/popular`.
    public let popularPhotos: PopularPhotos
    /// The users' sessions (their tokens): checked, listed, revoked, made.
    public let sessions: Sessions
    /// The photos users saved.
    public let favorites: Favorites
    /// The photos users viewed lately.
    public let recents: Recents
    /// What `GET /users/me` shows, and its patches.
    public let profiles: Profiles
    /// Every user's changes, for `GET /sync`.
    public let changeLog: ChangeLog
    /// The users' email addresses and their verification.
    public let email: EmailVerification
    public let passwordReset: PasswordReset
    /// Writes the outbox's account messages as they are sent (`OutboxSender`).
    public let mailComposer: any OutboxComposer
    private let policy: CredentialPolicy
    private let throttle: any LoginThrottling
    /// Nil when the limit is lifted.
    private let registrations: (any RegistrationThrottling)?
    /// The tokens' last uses, stored at most once a minute each.
    let tokenUses: TokenUseLog
    private let clock: @Sendable () -> Date
    /// The most rows one transaction of an erasure deletes (`UserDataErasure`).
    private let erasureSliceRows: Int
    private let afterErasureSlice: @Sendable (ErasureSlice) throws -> Void
    /// Verified against when the username is unknown, so that answer costs the
    /// same work as a wrong password (no user enumeration by timing). Its hash is
    /// random bytes: verifying costs one scrypt whatever it is compared with, and no
    /// password derives to it, so start-up need not spend a hash on it.
    private let dummyHash: PasswordHash

    /// Opens (creating or migrating) `<dataDirectory>/accounts.sqlite` and loads the
    /// common-password list; see `init(store:…)`.
    public convenience init(
        dataDirectory: String,
        commonPasswordsPath: String,
        passwordCost: ScryptCost = .owasp,
        concurrentHashes: Int = PasswordHasher.defaultConcurrentHashes,
        queuedHashes: Int = PasswordHasher.defaultQueuedHashes,
        limits: AccountLimits = AccountLimits(),
        clock: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        try self.init(
            store: UserDataLocation.sqlite(dataDirectory: dataDirectory).openStore(),
            commonPasswordsPath: commonPasswordsPath, passwordCost: passwordCost, concurrentHashes: concurrentHashes,
            queuedHashes: queuedHashes, limits: limits, clock: clock)
    }

    /// Rows per transaction of an erasure: a few milliseconds of the writer's time on
    /// SQLite (see docs/RELIABILITY.md for the measurement), far under the 100 ms that
    /// other users' writes may wait at most.
    public static let defaultErasureSliceRows = 2_000

    /// Uses `store` (already migrated) and loads the common-password list.
    /// - Parameters:
    ///   - passwordCost: the scrypt cost of new hashes; lower it only in tests.
    ///   - concurrentHashes, queuedHashes: see `PasswordHasher`.
    ///   - limits: the fair-use limits per client address.
    ///   - clock: the current time; tests move it to expire tokens and throttles.
    ///   - maximumFavorites: the most favorites one user keeps; lower only in tests.
    ///   - erasureSliceRows: the most rows one transaction of a reset or an account's
    ///     deletion deletes.
    ///   - afterErasureSlice: called after each committed slice of an erasure, for tests
    ///     to watch its slices; what it throws stops the erasure there, as a crash would.
    ///   - mail: where account mail is written (its sender runs elsewhere); nil when the
    ///     server sends no mail.
    public init(
        store: any UserDataStore,
        commonPasswordsPath: String,
        passwordCost: ScryptCost = .owasp,
        concurrentHashes: Int = PasswordHasher.defaultConcurrentHashes,
        queuedHashes: Int = PasswordHasher.defaultQueuedHashes,
        limits: AccountLimits = AccountLimits(),
        clock: @escaping @Sendable () -> Date = { Date() },
        maximumFavorites: Int = Favorites.defaultMaximum,
        erasureSliceRows: Int = defaultErasureSliceRows,
        afterErasureSlice: @escaping @Sendable (ErasureSlice) throws -> Void = { _ in },
        mail: Outbox? = nil
    ) throws {
        precondition(maximumFavorites > 0 && erasureSliceRows > 0, "a user keeps a favorite; a slice erases a row")
        self.erasureSliceRows = erasureSliceRows
        self.afterErasureSlice = afterErasureSlice
        policy = try CredentialPolicy(commonPasswordsPath: commonPasswordsPath)
        database = store
        hasher = try PasswordHasher(
            cost: passwordCost, concurrentHashes: concurrentHashes, queuedHashes: queuedHashes,
            hashesPerClient: limits.hashesPerClient)
        // What must hold across instances lives in a shared store; one instance's store
        // needs no disk write for it.
        if store.isShared {
            throttle = StoredLoginThrottle(store: store, failuresPerClient: limits.loginFailuresPerClient)
            registrations = limits.registrationsPerHour > 0
                ? StoredRegistrationThrottle(store: store, perHour: limits.registrationsPerHour) : nil
        } else {
            throttle = LoginThrottle(failuresPerClient: limits.loginFailuresPerClient)
            registrations = limits.registrationsPerHour > 0
                ? RegistrationThrottle(perHour: limits.registrationsPerHour) : nil
        }
        let milliseconds: @Sendable () -> Int64 = { Int64((clock().timeIntervalSince1970 * 1000).rounded(.down)) }
        tokenUses = TokenUseLog(store: store, clock: milliseconds)
        self.clock = clock
        popularPhotos = PopularPhotos(store: store, clock: clock)
        let codeKey = try ServerSecret.load(named: "email-code", from: store)
        sessions = Sessions(store: store, tokenUses: tokenUses, clock: milliseconds)
        favorites = Favorites(maximum: maximumFavorites, store: store, sessions: sessions, clock: milliseconds)
        recents = Recents(store: store, sessions: sessions, clock: milliseconds)
        email = EmailVerification(store: store, outbox: mail, codeKey: codeKey, clock: milliseconds)
        profiles = Profiles(store: store, email: email, clock: milliseconds)
        changeLog = ChangeLog(store: store, syncKey: try SyncTokenKey.load(from: store), clock: milliseconds)
        passwordReset = PasswordReset(store: store, policy: policy, hasher: hasher, outbox: mail, clock: milliseconds)
        mailComposer = AccountMail(codeKey: codeKey)
        dummyHash = PasswordHash(
            cost: passwordCost, salt: SecretBytes.random(count: PasswordHasher.saltByteCount),
            hash: SecretBytes.random(count: PasswordHasher.hashByteCount))
    }

    // MARK: Users

    /// Creates a user and signs them in, for a request from `clientAddress` with `userAgent`.
    /// - Throws: `tooManyRegistrations` once the address created as many accounts as it
    ///   may within the hour, decided before any hash is spent.
    public func register(username: String, password: String, clientAddress: String, userAgent: String? = nil) throws -> Session {
        let username = try policy.normalizedUsername(username)
        try policy.validateNewPassword(password, field: "password")
        if let retryAfter = try registrations?.retryAfter(clientAddress: clientAddress, now: clock()) {
            throw AccountsError.tooManyRegistrations(retryAfterSeconds: retryAfter)
        }
        let key = CredentialPolicy.key(forUsername: username)
        // Checked before hashing, so a taken name costs no scrypt; the UNIQUE
        // constraint below settles a race between two registrations.
        let isTaken = try database.read { connection in
            try connection.queryFirst("SELECT 1 FROM users WHERE username_key = ?", [.text(key)]) { _ in true } ?? false
        }
        guard !isTaken else { throw AccountsError.usernameTaken }
        let hash = try hasher.hash(password, clientAddress: clientAddress)
        let now = currentSecond()
        let session: Session
        do {
            session = try database.groupWrite { connection in
                let inserted = try connection.queryFirst(
                    """
                    INSERT INTO users (username, username_key, password_hash, created_at) VALUES (?, ?, ?, ?)
                    RETURNING id
                    """,
                    [.text(username), .text(key), .text(hash.encoded), .integer(now)]
                ) { $0.int64(0) }
                guard let userID = inserted else { preconditionFailure("INSERT … RETURNING returns the row") }
                try ChangeLog.record(.profile, userID: userID, at: now, in: connection)
                let user = User(
                    username: username, createdAt: Date(unixSeconds: now), favoriteCount: 0, displayName: nil, home: nil,
                    email: nil, emailVerified: false, role: .user)
                return try Sessions.issue(for: userID, user: user, userAgent: userAgent, now: now, in: connection)
            }
        } catch let error as UserDataError where error.isConstraintViolation {
            throw AccountsError.usernameTaken
        }
        try registrations?.record(clientAddress: clientAddress, now: clock())
        return session
    }

    /// Signs a user in with any case of their username, for a request with `userAgent`.
    /// Past `tokensPerUser` live tokens, the user's least recently used ones are revoked
    /// in the transaction that inserts the new one.
    /// - Throws: `invalidCredentials` for an unknown user and a wrong password alike;
    ///   `tooManyFailedLogins` once this pair, `tooManyFailedLoginsFromClient` once this
    ///   address has failed too often, decided before any hash is spent.
    public func login(username: String, password: String, clientAddress: String, userAgent: String? = nil) throws -> Session {
        let key = CredentialPolicy.key(forUsername: username)
        let throttleKey = LoginThrottle.Key(usernameKey: key, clientAddress: clientAddress)
        if let refusal = try throttle.refusal(throttleKey, now: clock()) {
            throw refusal
        }
        let row = try database.read { connection in
            try connection.queryFirst(
                "SELECT id, password_hash FROM users WHERE username_key = ? AND deleted_at IS NULL", [.text(key)]
            ) {
                (id: $0.int64(0), hash: $0.text(1))
            }
        }
        guard let row else {
            _ = try hasher.verify(password, against: dummyHash, clientAddress: clientAddress)
            try throttle.recordFailure(throttleKey, now: clock())
            throw AccountsError.invalidCredentials
        }
        let stored = try storedHash(row.hash, userID: row.id)
        guard try hasher.verify(password, against: stored, clientAddress: clientAddress) else {
            try throttle.recordFailure(throttleKey, now: clock())
            throw AccountsError.invalidCredentials
        }
        try throttle.recordSuccess(throttleKey)
        let rehashed = try rehashIfOutdated(password, stored: stored, clientAddress: clientAddress)
        // The uses this instance knows of, so the least recently used token is the one revoked.
        try tokenUses.flush(now: currentMillisecond())
        let now = currentSecond()
        return try database.groupWrite { connection in
            // Locked first: the user's tokens are counted, then the oldest revoked, so the
            // logins of one user take turns and none leaves more than `tokensPerUser`
            // behind; and a deletion that began meanwhile is seen, so no token is issued to it.
            try connection.lockRows("SELECT 1 FROM users WHERE id = ?", [.integer(row.id)])
            if let rehashed {
                try connection.execute(
                    "UPDATE users SET password_hash = ? WHERE id = ?", [.text(rehashed.encoded), .integer(row.id)])
            }
            try connection.execute("DELETE FROM tokens WHERE expires_at <= ?", [.integer(now)])
            guard let user = try User.stored(row.id, in: connection) else { throw AccountsError.invalidCredentials }
            return try Sessions.issue(for: row.id, user: user, userAgent: userAgent, now: now, in: connection)
        }
    }

    /// Sets a new password and revokes every token of the user but the presented one,
    /// for a request from `clientAddress`.
    public func changePassword(
        _ authenticated: AuthenticatedUser, currentPassword: String, newPassword: String, clientAddress: String
    ) throws {
        try policy.validateNewPassword(newPassword, field: "newPassword")
        try confirmPassword(currentPassword, of: authenticated, field: "currentPassword", clientAddress: clientAddress)
        let hash = try hasher.hash(newPassword, clientAddress: clientAddress)
        try database.groupWrite { [hash] connection in
            try connection.execute(
                "UPDATE users SET password_hash = ? WHERE id = ?", [.text(hash.encoded), .integer(authenticated.userID)])
            try connection.execute(
                "DELETE FROM tokens WHERE user_id = ? AND token_hash <> ?",
                [.integer(authenticated.userID), .blob(authenticated.tokenHash)])
        }
    }

    /// Deletes the user with everything that hangs off them, in slices
    /// (`UserDataErasure`); returns once all is gone. The first transaction marks the
    /// user as being deleted (`deleted_at`) and revokes every token, so the account stops
    /// working at once: no token works, no login succeeds. A deletion interrupted by a
    /// crash is finished by `finishInterruptedDeletions()` at the next start. For a
    /// request from `clientAddress`.
    public func deleteUser(_ authenticated: AuthenticatedUser, password: String, clientAddress: String) throws {
        try confirmPassword(password, of: authenticated, field: "password", clientAddress: clientAddress)
        let now = currentSecond()
        let userID = UserDataValue.integer(authenticated.userID)
        try database.groupWrite { connection in
            try Self.lockUser(authenticated, in: connection)
            try connection.execute(
                "UPDATE users SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL", [.integer(now), userID])
            try connection.execute("DELETE FROM tokens WHERE user_id = ?", [userID])
            // Wakes the user's held `GET /sync?wait=`, which then finds its token gone.
            try connection.announceChange(ofUser: authenticated.userID)
        }
        try erase(userID: authenticated.userID, for: .accountDeletion)
    }

    /// Finishes every account deletion that a crash or a stop interrupted (users whose
    /// `deleted_at` is set), slice by slice; returns how many there were.
    public func finishInterruptedDeletions() throws -> Int {
        let users = try database.read { connection in
            try connection.query("SELECT id FROM users WHERE deleted_at IS NOT NULL ORDER BY id", []) { $0.int64(0) }
        }
        for userID in users { try erase(userID: userID, for: .accountDeletion) }
        return users.count
    }

    /// "Reset": erases everything the user made with the account (favorites,
    /// recents, walks), in slices (`UserDataErasure`), each slice its own transaction
    /// that logs its tombstones for `GET /sync`; returns once all is gone. The account,
    /// its profile and its tokens stay. A reset that a crash interrupted was not
    /// acknowledged, and the same reset sent again finishes it.
    public func eraseUserData(_ authenticated: AuthenticatedUser) throws {
        try erase(userID: authenticated.userID, for: .reset)
    }

    /// Runs slices of the user's erasure, each one group-committed write, until one finds
    /// nothing left. Other writers' groups commit between them.
    private func erase(userID: Int64, for purpose: UserDataErasure.Purpose) throws {
        while true {
            let now = currentSecond()
            let slice = try database.groupWrite { [erasureSliceRows] connection in
                try connection.lockRows("SELECT 1 FROM users WHERE id = ?", [.integer(userID)])
                return try UserDataErasure.eraseSlice(
                    userID: userID, limit: erasureSliceRows, purpose: purpose, at: now, in: connection)
            }
            try afterErasureSlice(slice)
            if slice.finished { return }
        }
    }

    // MARK: Helpers

    private func confirmPassword(
        _ password: String, of authenticated: AuthenticatedUser, field: String, clientAddress: String
    ) throws {
        let encoded = try database.read { connection in
            try connection.queryFirst(
                "SELECT password_hash FROM users WHERE id = ?", [.integer(authenticated.userID)]
            ) { $0.text(0) }
        }
        guard let encoded else { throw AccountsError.invalidToken }
        let stored = try storedHash(encoded, userID: authenticated.userID)
        guard try hasher.verify(password, against: stored, clientAddress: clientAddress) else {
            throw AccountsError.wrongPassword(field: field)
        }
    }

    private func storedHash(_ encoded: String, userID: Int64) throws -> PasswordHash {
        guard let hash = PasswordHash(encoded: encoded) else { throw AccountsError.corruptPasswordHash(userID: userID) }
        return hash
    }

    /// A hash at the current cost when `stored` has another one. Skipped when the
    /// hasher is busy: the login has succeeded, and the next one tries again.
    private func rehashIfOutdated(_ password: String, stored: PasswordHash, clientAddress: String) throws -> PasswordHash? {
        guard stored.cost != hasher.cost else { return nil }
        do {
            return try hasher.hash(password, clientAddress: clientAddress)
        } catch AccountsError.hasherBusy, AccountsError.tooManyHashes {
            return nil
        }
    }

    /// Locks the user's row until the write transaction ends (see `UserDataConnection.lockRows`):
    /// every write of the user's data takes it first, which orders the user's change
    /// log (`ChangeLog`) on PostgreSQL.
    public static func lockUser(_ authenticated: AuthenticatedUser, in connection: any UserDataConnection) throws {
        try connection.lockRows("SELECT 1 FROM users WHERE id = ?", [.integer(authenticated.userID)])
    }

    private func currentSecond() -> Int64 {
        Int64(clock().timeIntervalSince1970.rounded(.down))
    }

    private func currentMillisecond() -> Int64 {
        Int64((clock().timeIntervalSince1970 * 1000).rounded(.down))
    }
}
