import Crypto
import Foundation
import UserData

/// Users, their bearer tokens, profiles, favorites and recently viewed photos, stored in
/// a `UserDataStore`: `<dataDirectory>/accounts.sqlite` by default, or PostgreSQL.
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
    /// How long a token works after it is issued.
    public static let tokenLifetime: TimeInterval = 30 * 24 * 60 * 60
    /// Live tokens a user may hold: a login past that revokes the least recently used.
    public static let tokensPerUser = 100

    public let hasher: PasswordHasher
    /// The store of users and of what hangs off them (favorites here; walks in
    /// their own module), for the modules that keep rows in it.
    public let database: any UserDataStore
    /// What people saved lately, for `GET /photos/popular`.
    public let popularPhotos: PopularPhotos
    private let policy: CredentialPolicy
    private let throttle: any LoginThrottling
    /// Nil when the limit is lifted.
    private let registrations: (any RegistrationThrottling)?
    /// The tokens' last uses, stored at most once a minute each.
    let tokenUses: TokenUseLog
    private let clock: @Sendable () -> Date
    /// The most favorites one user keeps (`AccountsError.favoriteLimitReached`).
    public let maximumFavorites: Int
    /// The most rows one transaction of an erasure deletes (`UserDataErasure`).
    private let erasureSliceRows: Int
    private let afterErasureSlice: @Sendable (ErasureSlice) throws -> Void
    /// Verified against when the username is unknown, so that answer costs the
    /// same work as a wrong password (no user enumeration by timing). Its hash is
    /// random bytes: verifying costs one scrypt whatever it is compared with, and no
    /// password derives to it, so start-up need not spend a hash on it.
    private let dummyHash: PasswordHash
    /// Authenticates the sync tokens (`SyncToken`), shared by every instance of the store.
    private let syncKey: SymmetricKey

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

    /// The most favorites one user keeps.
    public static let defaultMaximumFavorites = 10_000
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
    public init(
        store: any UserDataStore,
        commonPasswordsPath: String,
        passwordCost: ScryptCost = .owasp,
        concurrentHashes: Int = PasswordHasher.defaultConcurrentHashes,
        queuedHashes: Int = PasswordHasher.defaultQueuedHashes,
        limits: AccountLimits = AccountLimits(),
        clock: @escaping @Sendable () -> Date = { Date() },
        maximumFavorites: Int = defaultMaximumFavorites,
        erasureSliceRows: Int = defaultErasureSliceRows,
        afterErasureSlice: @escaping @Sendable (ErasureSlice) throws -> Void = { _ in }
    ) throws {
        precondition(maximumFavorites > 0 && erasureSliceRows > 0, "a user keeps a favorite; a slice erases a row")
        self.maximumFavorites = maximumFavorites
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
        tokenUses = TokenUseLog(store: store)
        self.clock = clock
        popularPhotos = PopularPhotos(store: store, clock: clock)
        syncKey = try SyncTokenKey.load(from: store)
        dummyHash = PasswordHash(
            cost: passwordCost, salt: SecretBytes.random(count: PasswordHasher.saltByteCount),
            hash: SecretBytes.random(count: PasswordHasher.hashByteCount))
    }

    // MARK: Users

    /// Creates a user and signs them in, for a request from `clientAddress`.
    /// - Throws: `tooManyRegistrations` once the address created as many accounts as it
    ///   may within the hour, decided before any hash is spent.
    public func register(username: String, password: String, clientAddress: String) throws -> Session {
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
                    username: username, createdAt: Self.date(now), favoriteCount: 0, displayName: nil, home: nil,
                    role: .user)
                return try Self.issueToken(for: userID, user: user, now: now, in: connection)
            }
        } catch let error as UserDataError where error.isConstraintViolation {
            throw AccountsError.usernameTaken
        }
        try registrations?.record(clientAddress: clientAddress, now: clock())
        return session
    }

    /// Signs a user in with any case of their username. Past `tokensPerUser` live
    /// tokens, the user's least recently used ones are revoked in the transaction that
    /// inserts the new one.
    /// - Throws: `invalidCredentials` for an unknown user and a wrong password alike;
    ///   `tooManyFailedLogins` once this pair, `tooManyFailedLoginsFromClient` once this
    ///   address has failed too often, decided before any hash is spent.
    public func login(username: String, password: String, clientAddress: String) throws -> Session {
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
            guard let user = try Self.user(row.id, in: connection) else { throw AccountsError.invalidCredentials }
            return try Self.issueToken(for: row.id, user: user, now: now, in: connection)
        }
    }

    /// The user a bearer token belongs to, if it is well formed, known and unexpired.
    public func authenticate(token: String) throws -> AuthenticatedUser {
        guard let digest = AccessToken.digest(token) else { throw AccountsError.invalidToken }
        let now = currentSecond()
        let userID = try database.read { connection in
            try connection.queryFirst(
                "SELECT user_id FROM tokens WHERE token_hash = ? AND expires_at > ?", [.blob(digest), .integer(now)]
            ) { $0.int64(0) }
        }
        guard let userID else { throw AccountsError.invalidToken }
        tokenUses.recordUse(digest: digest, now: currentMillisecond())
        return AuthenticatedUser(userID: userID, tokenHash: digest)
    }

    /// Which of `authenticated` still work: their tokens known and unexpired, whatever
    /// ended the others (logout, password change, account deletion, a revoked session,
    /// expiry), on whichever instance of a shared store. One query whatever their
    /// number: on PostgreSQL `= ANY(?)` with every digest in one `bytea[]`; on SQLite,
    /// which has no round trips and no arrays, one statement (one text, prepared once)
    /// per `tokenCheckCapacity` tokens.
    public func stillAuthenticated(_ authenticated: Set<AuthenticatedUser>) throws -> Set<AuthenticatedUser> {
        guard !authenticated.isEmpty else { return [] }
        let now = UserDataValue.integer(currentSecond())
        let digests = authenticated.map(\.tokenHash)
        let onPostgres = database is PostgresUserDataStore
        let working: Set<[UInt8]> = try database.read { connection in
            if onPostgres {
                return Set(try connection.query(
                    "SELECT token_hash FROM tokens WHERE token_hash = ANY(?) AND expires_at > ?", [.blobs(digests), now]
                ) { $0.blob(0) })
            }
            var working: Set<[UInt8]> = []
            for start in stride(from: 0, to: digests.count, by: Self.tokenCheckCapacity) {
                let chunk = digests[start..<min(start + Self.tokenCheckCapacity, digests.count)]
                // The unused placeholders NULL, which no token_hash equals.
                let values = [now] + chunk.map { UserDataValue.blob($0) }
                    + Array(repeating: UserDataValue.null, count: Self.tokenCheckCapacity - chunk.count)
                working.formUnion(try connection.query(Self.workingTokensSQL, values) { $0.blob(0) })
            }
            return working
        }
        return authenticated.filter { working.contains($0.tokenHash) }
    }

    /// The most tokens one statement of `stillAuthenticated` checks on SQLite.
    static let tokenCheckCapacity = 100

    private static let workingTokensSQL = """
        SELECT token_hash FROM tokens
        WHERE expires_at > ?1 AND token_hash IN (\((2...tokenCheckCapacity + 1).map { "?\($0)" }.joined(separator: ", ")))
        """

    public func user(_ authenticated: AuthenticatedUser) throws -> User {
        let user = try database.read { connection in try Self.user(authenticated.userID, in: connection) }
        guard let user else { throw AccountsError.invalidToken }
        return user
    }

    /// Revokes the token the request presented.
    public func logout(_ authenticated: AuthenticatedUser) throws {
        try database.groupWrite { connection in
            try connection.execute("DELETE FROM tokens WHERE token_hash = ?", [.blob(authenticated.tokenHash)])
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

    // MARK: Profile

    /// Applies a merge patch to the profile and hands `completion` the user as updated.
    /// Every field is validated before anything is written (a bad one throws here,
    /// and nothing is written), and the write is one transaction: a patch is applied
    /// whole or not at all.
    public func updateProfile(
        _ authenticated: AuthenticatedUser, patch: ProfilePatch,
        completion: @escaping @Sendable (Result<User, any Error>) -> Void
    ) throws {
        var assignments: [String] = []
        var values: [UserDataValue] = []
        switch patch.displayName {
        case .unchanged: break
        case .cleared:
            assignments.append("display_name = NULL")
        case .set(let name):
            assignments.append("display_name = ?")
            values.append(.text(try ProfilePolicy.normalizedDisplayName(name)))
        }
        switch patch.home {
        case .unchanged: break
        case .cleared:
            assignments.append("home_latitude = NULL, home_longitude = NULL")
        case .set(let home):
            try ProfilePolicy.validate(home)
            assignments.append("home_latitude = ?, home_longitude = ?")
            values += [.real(home.latitude), .real(home.longitude)]
        }
        let now = currentSecond()
        database.groupWrite(
            { [assignments, values] connection in
                try Self.lockUser(authenticated, in: connection)
                if !assignments.isEmpty {
                    try connection.execute(
                        "UPDATE users SET \(assignments.joined(separator: ", ")) WHERE id = ?",
                        values + [.integer(authenticated.userID)])
                }
                guard let user = try Self.user(authenticated.userID, in: connection) else { throw AccountsError.invalidToken }
                if !assignments.isEmpty { try ChangeLog.record(.profile, userID: authenticated.userID, at: now, in: connection) }
                return user
            },
            completion: completion)
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

    // MARK: Favorites

    /// Saves a photo (the caller checks that the catalog has it). Idempotent: saving
    /// it again returns the first `savedAt`. `completion` runs once it is committed and
    /// fsynced.
    ///
    /// A user keeps at most `maximumFavorites`: a new favorite past them gets
    /// `favoriteLimitReached` (a photo already saved is still answered). The count is
    /// kept in `users.favorites_count` by every write of `favorites` (this one,
    /// `removeFavorite`, the erasures), read here by one lookup of the user's row.
    public func saveFavorite(
        _ authenticated: AuthenticatedUser, photoID: String,
        completion: @escaping @Sendable (Result<FavoriteSave, any Error>) -> Void
    ) {
        let now = currentSecond()
        let userID = UserDataValue.integer(authenticated.userID)
        database.groupWrite(
            { [maximumFavorites] connection in
                try Self.lockUser(authenticated, in: connection)
                let saved = try connection.queryFirst("SELECT favorites_count FROM users WHERE id = ?", [userID]) {
                    $0.int(0)
                }
                guard let saved else { throw AccountsError.invalidToken }
                guard saved < maximumFavorites else {
                    let savedAt = try connection.queryFirst(
                        "SELECT saved_at FROM favorites WHERE user_id = ? AND photo_id = ?", [userID, .text(photoID)]
                    ) { $0.int64(0) }
                    guard let savedAt else { throw AccountsError.favoriteLimitReached(maximum: maximumFavorites) }
                    return FavoriteSave(favorite: Favorite(photoID: photoID, savedAt: Self.date(savedAt)), created: false)
                }
                try connection.execute(
                    """
                    INSERT INTO favorites (user_id, photo_id, saved_at) VALUES (?, ?, ?)
                    ON CONFLICT (user_id, photo_id) DO NOTHING
                    """,
                    [.integer(authenticated.userID), .text(photoID), .integer(now)])
                if connection.changes == 1 {
                    try connection.execute("UPDATE users SET favorites_count = favorites_count + 1 WHERE id = ?", [userID])
                    try ChangeLog.record(.favorite, photoID: photoID, userID: authenticated.userID, at: now, in: connection)
                    // The profile's favoriteCount changed.
                    try ChangeLog.record(.profile, userID: authenticated.userID, at: now, in: connection)
                    return FavoriteSave(favorite: Favorite(photoID: photoID, savedAt: Self.date(now)), created: true)
                }
                let savedAt = try connection.queryFirst(
                    "SELECT saved_at FROM favorites WHERE user_id = ? AND photo_id = ?",
                    [.integer(authenticated.userID), .text(photoID)]
                ) { $0.int64(0) }
                guard let savedAt else { throw AccountsError.favoriteNotFound }
                return FavoriteSave(favorite: Favorite(photoID: photoID, savedAt: Self.date(savedAt)), created: false)
            },
            completion: { completion($0.mapError(Self.userGoneMeanwhile)) })
    }

    /// Saves a photo as `saveFavorite(_:photoID:completion:)` does, for the user of the
    /// bearer `token`, checked in the same transaction: on PostgreSQL in one statement,
    /// the function `save_favorite` (`PostgresUserDataSchema`), one round trip where
    /// authenticating and then saving take eleven; on SQLite, which has no round trips,
    /// `authenticate(token:)` then `saveFavorite(_:photoID:completion:)`.
    /// Hands `completion` `invalidToken` when the token does not work.
    public func saveFavorite(
        token: String, photoID: String, completion: @escaping @Sendable (Result<FavoriteSave, any Error>) -> Void
    ) {
        write(token: token, completion: completion) { authenticated in
            saveFavorite(authenticated, photoID: photoID, completion: completion)
        } inOneStatement: { server, digest in
            let now = currentSecond()
            let saved = try server.writeStatement { connection in
                let row = try connection.queryFirst(
                    "SELECT saver_id, saved_second, created, at_capacity FROM save_favorite(?, ?, ?, ?)",
                    [.blob(digest), .text(photoID), .integer(now), .integer(Int64(maximumFavorites))]
                ) {
                    (userID: $0.int64(0), savedAt: $0.isNull(1) ? nil : $0.int64(1), created: $0.int(2) == 1,
                     atCapacity: $0.int(3) == 1)
                }
                if let row, row.created { try connection.announceChange(ofUser: row.userID) }
                return row
            }
            guard let saved else { throw AccountsError.invalidToken }
            tokenUses.recordUse(digest: digest, now: currentMillisecond())
            guard !saved.atCapacity else { throw AccountsError.favoriteLimitReached(maximum: maximumFavorites) }
            guard let savedAt = saved.savedAt else { throw AccountsError.favoriteNotFound }
            return FavoriteSave(favorite: Favorite(photoID: photoID, savedAt: Self.date(savedAt)), created: saved.created)
        }
    }

    /// A write for the user of the bearer `token`, the token checked in the write's own
    /// transaction: on PostgreSQL `inOneStatement`, with the store and the token's digest
    /// (a stored function that checks it and writes, in one round trip); on SQLite
    /// `authenticate(token:)`, then `authenticated`, which hands `completion` its outcome.
    private func write<Value: Sendable>(
        token: String, completion: @escaping @Sendable (Result<Value, any Error>) -> Void,
        authenticated: (AuthenticatedUser) -> Void,
        inOneStatement: (PostgresUserDataStore, [UInt8]) throws -> Value
    ) {
        guard let server = database as? PostgresUserDataStore else {
            do {
                authenticated(try authenticate(token: token))
            } catch {
                completion(.failure(error))
            }
            return
        }
        guard let digest = AccessToken.digest(token) else { return completion(.failure(AccountsError.invalidToken)) }
        completion(Result { try inOneStatement(server, digest) })
    }

    /// Hands `completion` `favoriteNotFound` when the photo is not a favorite of this user.
    public func removeFavorite(
        _ authenticated: AuthenticatedUser, photoID: String, completion: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        let now = currentSecond()
        database.groupWrite(
            { connection in
                try Self.lockUser(authenticated, in: connection)
                try connection.execute(
                    "DELETE FROM favorites WHERE user_id = ? AND photo_id = ?",
                    [.integer(authenticated.userID), .text(photoID)])
                guard connection.changes > 0 else { throw AccountsError.favoriteNotFound }
                try connection.execute(
                    "UPDATE users SET favorites_count = favorites_count - 1 WHERE id = ?", [.integer(authenticated.userID)])
                try ChangeLog.record(.favorite, photoID: photoID, deleted: true, userID: authenticated.userID, at: now, in: connection)
                try ChangeLog.record(.profile, userID: authenticated.userID, at: now, in: connection)
            },
            completion: completion)
    }

    /// A page of favorites, newest first, after `cursor` (from a previous page).
    /// - Throws: `invalidCursor` for a cursor this server did not issue.
    public func favorites(_ authenticated: AuthenticatedUser, limit: Int, cursor: String?) throws -> FavoritesPage {
        precondition(limit > 0, "limit must be positive")
        let before = try cursor.map(SequenceCursor.favorites.decode) ?? Int64.max
        let rows = try database.read { connection in
            try connection.query(
                """
                SELECT sequence, photo_id, saved_at FROM favorites
                WHERE user_id = ? AND sequence < ? ORDER BY sequence DESC LIMIT ?
                """,
                [.integer(authenticated.userID), .integer(before), .integer(Int64(limit) + 1)]
            ) { (sequence: $0.int64(0), favorite: Favorite(photoID: $0.text(1), savedAt: Self.date($0.int64(2)))) }
        }
        let page = rows.prefix(limit)
        let nextCursor = rows.count > limit ? page.last.map { SequenceCursor.favorites.encode(sequence: $0.sequence) } : nil
        return FavoritesPage(favorites: page.map(\.favorite), nextCursor: nextCursor)
    }

    /// The most photos `favorites(_:photoIDs:)` looks up at once.
    public static let favoriteLookupCapacity = 100

    /// The caller's favorites among `photoIDs` (at most `favoriteLookupCapacity`), newest
    /// first; photos not saved are absent.
    ///
    /// Most users have fewer favorites than a list screen shows photos, and reading all
    /// of a user's favorites costs SQLite about half of looking up as many photos (1.9k
    /// against 3.1k instructions a row, measured with callgrind). So a user with no more
    /// favorites than there are photos has them read whole; a user with more (counted
    /// in the `favorites_by_user` index only, up to one past the photos) has each photo
    /// looked up.
    public func favorites(_ authenticated: AuthenticatedUser, photoIDs: Set<PhotoIDKey>) throws -> [Favorite] {
        precondition(photoIDs.count <= Self.favoriteLookupCapacity, "at most \(Self.favoriteLookupCapacity) photos")
        guard !photoIDs.isEmpty else { return [] }
        let userID = UserDataValue.integer(authenticated.userID)
        return try database.read { connection in
            let saved = try connection.queryFirst(
                "SELECT count(*) FROM (SELECT 1 FROM favorites WHERE user_id = ? LIMIT ?) AS saved",
                [userID, .integer(Int64(photoIDs.count) + 1)]
            ) { Int($0.int64(0)) } ?? 0
            if saved <= photoIDs.count {
                return try connection.query(
                    "SELECT photo_id, saved_at FROM favorites WHERE user_id = ? ORDER BY sequence DESC", [userID]
                ) { Favorite(photoID: $0.text(0), savedAt: Self.date($0.int64(1))) }
                .filter { photoIDs.contains(PhotoIDKey($0.photoID)) }
            }
            // Always all the placeholders, the unused ones NULL (which no photo_id equals):
            // one statement text, prepared once, whatever the number of photos.
            let values = [userID] + photoIDs.map { UserDataValue.text($0.photoID) }
                + Array(repeating: UserDataValue.null, count: Self.favoriteLookupCapacity - photoIDs.count)
            let rows = try connection.query(Self.favoritesAmongPhotosSQL, values) {
                (sequence: $0.int64(0), favorite: Favorite(photoID: $0.text(1), savedAt: Self.date($0.int64(2))))
            }
            return rows.sorted { $0.sequence > $1.sequence }.map(\.favorite)
        }
    }

    /// The photos as a list of constant rows (`?2`…), each looked up in the
    /// `(user_id, photo_id)` key: unlike `photo_id IN (…)`, no temporary index of the
    /// list is built first. Sorted by the caller, not by `ORDER BY sequence`: with one,
    /// SQLite walks all the user's favorites in `favorites_by_user` order to avoid a
    /// sort, instead of looking up each photo.
    private static let favoritesAmongPhotosSQL = """
        WITH wanted(photo_id) AS (VALUES \((2...favoriteLookupCapacity + 1).map { "(?\($0))" }.joined(separator: ", ")))
        SELECT favorites.sequence, favorites.photo_id, favorites.saved_at FROM wanted
        JOIN favorites ON favorites.user_id = ?1 AND favorites.photo_id = wanted.photo_id
        """

    /// The caller's favorite of one photo.
    /// - Throws: `favoriteNotFound` when the photo is not a favorite of this user.
    public func favorite(_ authenticated: AuthenticatedUser, photoID: String) throws -> Favorite {
        let savedAt = try database.read { connection in
            try connection.queryFirst(
                "SELECT saved_at FROM favorites WHERE user_id = ? AND photo_id = ?",
                [.integer(authenticated.userID), .text(photoID)]
            ) { $0.int64(0) }
        }
        guard let savedAt else { throw AccountsError.favoriteNotFound }
        return Favorite(photoID: photoID, savedAt: Self.date(savedAt))
    }

    // MARK: Recently viewed

    /// How many recently viewed photos a user keeps; older views are dropped.
    public static let recentsCapacity = 100

    /// Puts a photo (the caller checks that the catalog has it) at the top of the
    /// user's recently viewed list: its earlier view, if any, is replaced, and views
    /// beyond `recentsCapacity` are deleted in the same transaction, so the list
    /// never holds more. `completion` runs once it is committed and fsynced.
    ///
    /// The list's length is kept in `users.recents_count` by every write of `recents`
    /// (this one, `clearRecents`, the erasures): a view of a photo not in a full list
    /// reads the count and the oldest view by an index lookup each, where counting the
    /// list would step over every view in it.
    public func recordView(
        _ authenticated: AuthenticatedUser, photoID: String, completion: @escaping @Sendable (Result<Recent, any Error>) -> Void
    ) {
        let now = currentSecond()
        let userID = UserDataValue.integer(authenticated.userID)
        database.groupWrite(
            { connection in
                // The user's row first: which views lie beyond the capacity depends on
                // every view of the user, so their writers take turns.
                try Self.lockUser(authenticated, in: connection)
                try connection.execute("DELETE FROM recents WHERE user_id = ? AND photo_id = ?", [userID, .text(photoID)])
                let viewedBefore = connection.changes > 0
                try connection.execute(
                    "INSERT INTO recents (user_id, photo_id, viewed_at) VALUES (?, ?, ?)",
                    [userID, .text(photoID), .integer(now)])
                try ChangeLog.record(.recent, photoID: photoID, userID: authenticated.userID, at: now, in: connection)
                // A view that replaced an earlier one left the list as long as it was.
                guard !viewedBefore else { return Recent(photoID: photoID, viewedAt: Self.date(now)) }
                let count = try connection.queryFirst("SELECT recents_count FROM users WHERE id = ?", [userID]) {
                    $0.int64(0)
                } ?? 0
                guard count >= Int64(Self.recentsCapacity) else {
                    try connection.execute("UPDATE users SET recents_count = recents_count + 1 WHERE id = ?", [userID])
                    return Recent(photoID: photoID, viewedAt: Self.date(now))
                }
                // The list was full: its oldest views go, as many as leave it full again.
                let pushedOut = try connection.query(
                    "SELECT sequence, photo_id FROM recents WHERE user_id = ? ORDER BY sequence LIMIT ?",
                    [userID, .integer(count - Int64(Self.recentsCapacity) + 1)]
                ) { (sequence: $0.int64(0), photoID: $0.text(1)) }
                if let newestPushedOut = pushedOut.last?.sequence {
                    try connection.execute(
                        "DELETE FROM recents WHERE user_id = ? AND sequence <= ?", [userID, .integer(newestPushedOut)])
                }
                if count != Int64(Self.recentsCapacity) {
                    try connection.execute(
                        "UPDATE users SET recents_count = ? WHERE id = ?", [.integer(Int64(Self.recentsCapacity)), userID])
                }
                for old in pushedOut {
                    try ChangeLog.record(
                        .recent, photoID: old.photoID, deleted: true, userID: authenticated.userID, at: now, in: connection)
                }
                return Recent(photoID: photoID, viewedAt: Self.date(now))
            },
            completion: { completion($0.mapError(Self.userGoneMeanwhile)) })
    }

    /// Records a view as `recordView(_:photoID:completion:)` does, for the user of the
    /// bearer `token`, checked in the same transaction: on PostgreSQL in one statement,
    /// the function `record_view` (`PostgresUserDataSchema`), one round trip where
    /// authenticating and then recording into a full list take fourteen; on SQLite,
    /// which has no round trips, `authenticate(token:)` then
    /// `recordView(_:photoID:completion:)`.
    /// Hands `completion` `invalidToken` when the token does not work.
    public func recordView(
        token: String, photoID: String, completion: @escaping @Sendable (Result<Recent, any Error>) -> Void
    ) {
        write(token: token, completion: completion) { authenticated in
            recordView(authenticated, photoID: photoID, completion: completion)
        } inOneStatement: { server, digest in
            let now = currentSecond()
            let viewer = try server.writeStatement { connection in
                let viewer = try connection.queryFirst(
                    "SELECT viewer_id FROM record_view(?, ?, ?, ?, ?)",
                    [.blob(digest), .text(photoID), .integer(now), .integer(Int64(Self.recentsCapacity)),
                     .integer(ChangeLog.tombstoneSeconds)]
                ) { $0.int64(0) }
                if let viewer { try connection.announceChange(ofUser: viewer) }
                return viewer
            }
            guard viewer != nil else { throw AccountsError.invalidToken }
            tokenUses.recordUse(digest: digest, now: currentMillisecond())
            return Recent(photoID: photoID, viewedAt: Self.date(now))
        }
    }

    /// The user's most recently viewed photos, most recent first (the later view
    /// first when two share a second).
    public func recents(_ authenticated: AuthenticatedUser, limit: Int) throws -> [Recent] {
        precondition(limit > 0, "limit must be positive")
        return try database.read { connection in
            try connection.query(
                "SELECT photo_id, viewed_at FROM recents WHERE user_id = ? ORDER BY sequence DESC LIMIT ?",
                [.integer(authenticated.userID), .integer(Int64(limit))]
            ) { Recent(photoID: $0.text(0), viewedAt: Self.date($0.int64(1))) }
        }
    }

    /// Empties the user's recently viewed list.
    public func clearRecents(_ authenticated: AuthenticatedUser, completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        let now = currentSecond()
        database.groupWrite(
            { connection in
                try Self.lockUser(authenticated, in: connection)
                let cleared = try connection.query(
                    "DELETE FROM recents WHERE user_id = ? RETURNING photo_id", [.integer(authenticated.userID)]
                ) { $0.text(0) }
                try connection.execute("UPDATE users SET recents_count = 0 WHERE id = ?", [.integer(authenticated.userID)])
                for photoID in cleared {
                    try ChangeLog.record(.recent, photoID: photoID, deleted: true, userID: authenticated.userID, at: now, in: connection)
                }
            },
            completion: completion)
    }

    // MARK: Sync

    /// The user's changes after the answer that gave `since` (without it, the whole
    /// current state), at most `limit`, with the token to continue from.
    /// - Throws: `invalidSyncToken` for a `since` this server did not issue to this
    ///   user; `expiredSyncToken` for one older than the retained history.
    public func changes(_ authenticated: AuthenticatedUser, since: String?, limit: Int) throws -> ChangesPage {
        precondition(limit > 0, "limit must be positive")
        let now = currentSecond()
        let after = try since.map {
            try SyncToken(decoding: $0, userID: authenticated.userID, key: syncKey, now: now).sequence
        } ?? 0
        let (rows, last) = try database.read { connection in
            try connection.snapshot {
                let rows = try ChangeLog.changes(
                    userID: authenticated.userID, after: after, limit: limit + 1, live: since == nil, in: connection)
                return (rows, try ChangeLog.lastSequence(userID: authenticated.userID, in: connection))
            }
        }
        let more = rows.count > limit
        let page = rows.prefix(limit)
        // Not `more`: past every row, the tombstones a whole-state answer leaves out included.
        let through = more ? page.last!.sequence : max(last, after)
        let next = SyncToken(userID: authenticated.userID, sequence: through, issuedAt: now).encoded(key: syncKey)
        return ChangesPage(changes: page.map(\.change), next: next, more: more)
    }

    /// The caller's favorite of one photo, nil when it is not saved.
    public func favoriteIfSaved(_ authenticated: AuthenticatedUser, photoID: String) throws -> Favorite? {
        do {
            return try favorite(authenticated, photoID: photoID)
        } catch AccountsError.favoriteNotFound {
            return nil
        }
    }

    /// The caller's view of one photo, nil when it is not in the recently viewed list.
    public func recent(_ authenticated: AuthenticatedUser, photoID: String) throws -> Recent? {
        try database.read { connection in
            try connection.queryFirst(
                "SELECT viewed_at FROM recents WHERE user_id = ? AND photo_id = ?",
                [.integer(authenticated.userID), .text(photoID)]
            ) { Recent(photoID: photoID, viewedAt: Self.date($0.int64(0))) }
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

    /// A write that broke a constraint after the user was authenticated: the user's
    /// foreign key (the only constraint such a write can break), so the user was deleted
    /// meanwhile and the token no longer works.
    private static func userGoneMeanwhile(_ error: any Error) -> any Error {
        if let violation = error as? UserDataError, violation.isConstraintViolation {
            return AccountsError.invalidToken
        }
        return error
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

    private static func date(_ seconds: Int64) -> Date {
        Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private static func user(_ id: Int64, in connection: any UserDataConnection) throws -> User? {
        try connection.queryFirst(
            """
            SELECT username, created_at, favorites_count, display_name, home_latitude, home_longitude, role
            FROM users WHERE id = ? AND deleted_at IS NULL
            """,
            [.integer(id)]
        ) { row in
            User(
                username: row.text(0), createdAt: date(row.int64(1)), favoriteCount: row.int(2),
                displayName: row.optionalText(3),
                home: row.isNull(4) ? nil : HomePlace(latitude: row.double(4), longitude: row.double(5)),
                role: UserRole(rawValue: row.text(6)) ?? .user)
        }
    }

    /// Inserts a new token of the user, issued (and so last used) at `now`, and revokes
    /// the user's least recently used tokens beyond `tokensPerUser` (expired ones are
    /// deleted before by the caller). The caller holds the user's row lock.
    private static func issueToken(for userID: Int64, user: User, now: Int64, in connection: any UserDataConnection) throws -> Session {
        let token = AccessToken.generate()
        let expiresAt = now + Int64(tokenLifetime)
        guard let digest = AccessToken.digest(token) else { preconditionFailure("a generated token is always well formed") }
        try connection.execute(
            "INSERT INTO tokens (token_hash, user_id, created_at, expires_at, last_used_at) VALUES (?, ?, ?, ?, ?)",
            [.blob(digest), .integer(userID), .integer(now), .integer(expiresAt), .integer(now * 1000)])
        let live = try connection.queryFirst(
            "SELECT count(*) FROM tokens WHERE user_id = ? AND expires_at > ?", [.integer(userID), .integer(now)]
        ) { $0.int64(0) } ?? 0
        if live > Int64(tokensPerUser) {
            let revoked = try connection.query(
                """
                SELECT token_hash FROM tokens WHERE user_id = ? AND token_hash <> ?
                ORDER BY last_used_at, created_at, token_hash LIMIT ?
                """,
                [.integer(userID), .blob(digest), .integer(live - Int64(tokensPerUser))]
            ) { $0.blob(0) }
            for tokenHash in revoked {
                try connection.execute("DELETE FROM tokens WHERE token_hash = ?", [.blob(tokenHash)])
            }
        }
        return Session(user: user, token: token, expiresAt: date(expiresAt))
    }
}
