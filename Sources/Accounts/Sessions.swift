import Basics
import Crypto
import Foundation
import UserData

/// The sessions of a user: each token is one, made by a registration, a login or a
/// confirmed password reset. A token expires `idleLifetime` after its last use, and
/// `maximumLifetime` after it was made at the latest: a phone in daily use stays
/// signed in, a lost one's token dies a month after its last request, and none
/// lives past a year.
///
/// The last use is the `TokenUseLog`'s (memory first, stored at most once a minute),
/// which keeps `tokens.expires_at` at the sliding expiry as it stores a use; so checking
/// a token stays one indexed comparison, and a request writes nothing.
public struct Sessions: Sendable {
    /// 30 days, in seconds.
    public static let idleLifetime: Int64 = 30 * 24 * 60 * 60
    /// 365 days, in seconds.
    public static let maximumLifetime: Int64 = 365 * 24 * 60 * 60
    /// The most characters of a `User-Agent` kept.
    public static let userAgentLength = 256

    let store: any UserDataStore
    let tokenUses: TokenUseLog
    /// The current time in Unix milliseconds.
    let clock: @Sendable () -> Int64

    /// When a token made at `createdAt` and last used at `lastUsedAt` (Unix seconds) expires.
    static func expiry(createdAt: Int64, lastUsedAt: Int64) -> Int64 {
        min(lastUsedAt + idleLifetime, createdAt + maximumLifetime)
    }

    /// The public name of the token with SHA-256 `digest`: the first 128 bits of the
    /// SHA-256 of that digest, base64url. Stable, unique among a user's hundred tokens,
    /// and no help in finding the token or the digest it is looked up by.
    static func sessionID(digest: [UInt8]) -> String {
        let named = SHA256.hash(data: Array("past-nyc session ".utf8) + digest)
        return Base64.url.encode(named.withUnsafeBytes { Array($0.prefix(16)) })
    }

    /// The user a bearer token belongs to, if it is well formed, known and unexpired.
    public func authenticate(token: String) throws -> AuthenticatedUser {
        guard let digest = AccessToken.digest(token) else { throw AccountsError.invalidToken }
        let now = clock()
        let userID = try store.read { connection in
            try connection.queryFirst(
                "SELECT user_id FROM tokens WHERE token_hash = ? AND expires_at > ?", [.blob(digest), .integer(now / 1000)]
            ) { $0.int64(0) }
        }
        guard let userID else { throw AccountsError.invalidToken }
        tokenUses.recordUse(digest: digest, now: now)
        return AuthenticatedUser(userID: userID, tokenHash: digest)
    }

    /// Which of `authenticated` still work: their tokens known and unexpired, whatever
    /// ended the others (logout, password change, account deletion, a revoked session,
    /// expiry), on whichever instance of a shared store. One query whatever their
    /// number where the store binds a list as one value (PostgreSQL: `= ANY(?)` with every
    /// digest in one `bytea[]`); else (SQLite, which has no round trips and no arrays) one
    /// statement (one text, prepared once) per `tokenCheckCapacity` tokens.
    public func stillAuthenticated(_ authenticated: Set<AuthenticatedUser>) throws -> Set<AuthenticatedUser> {
        guard !authenticated.isEmpty else { return [] }
        let now = UserDataValue.integer(clock() / 1000)
        let digests = authenticated.map(\.tokenHash)
        let working: Set<[UInt8]> = try store.read { [bindsLists = store.bindsLists] connection in
            if bindsLists {
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

    /// The most tokens one statement of `stillAuthenticated` checks where a list is bound
    /// one placeholder per item.
    static let tokenCheckCapacity = 100

    private static let workingTokensSQL = """
        SELECT token_hash FROM tokens
        WHERE expires_at > ?1 AND token_hash IN (\((2...tokenCheckCapacity + 1).map { "?\($0)" }.joined(separator: ", ")))
        """

    /// Runs a write for the holder of the bearer `token` in the form the store chooses
    /// (`TokenCheckedWrite`) and hands `completion` its outcome: the two steps authenticate
    /// the token here, then hand its user to `forUser`; the one statement gets the token's
    /// digest and returns its row, nil when the token did not work (`invalidToken`); a
    /// use of the token is noted, and `answer` makes the row the write's value.
    func runCheckedWrite<Row: Sendable, Value: Sendable>(
        token: String,
        forUser: @escaping @Sendable (AuthenticatedUser, @escaping @Sendable (Result<Value, any Error>) -> Void) -> Void,
        statement: @escaping @Sendable (_ digest: [UInt8], any UserDataConnection) throws -> Row?,
        answer: @escaping @Sendable (Row) throws -> Value,
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        guard let digest = AccessToken.digest(token) else { return completion(.failure(AccountsError.invalidToken)) }
        let write = TokenCheckedWrite<Value>(
            inTwoSteps: { [self] completion in
                do {
                    forUser(try authenticate(token: token), completion)
                } catch {
                    completion(.failure(error))
                }
            },
            inOneStatement: { [self] connection in
                guard let row = try statement(digest, connection) else { throw AccountsError.invalidToken }
                tokenUses.recordUse(digest: digest, now: clock())
                return try answer(row)
            })
        store.run(write, completion: completion)
    }

    /// Revokes the token the request presented.
    public func logout(_ authenticated: AuthenticatedUser) throws {
        try store.groupWrite { connection in
            try connection.execute("DELETE FROM tokens WHERE token_hash = ?", [.blob(authenticated.tokenHash)])
        }
    }

    /// The user's live sessions, most recently used first (ties: the newest first).
    public func list(_ authenticated: AuthenticatedUser) throws -> [SessionSummary] {
        let now = clock()
        let rows = try store.read { connection in
            try connection.query(
                "SELECT token_hash, created_at, last_used_at, user_agent FROM tokens WHERE user_id = ? AND expires_at > ?",
                [.integer(authenticated.userID), .integer(now / 1000)]
            ) { (digest: $0.blob(0), createdAt: $0.int64(1), lastUsed: $0.int64(2), userAgent: $0.optionalText(3)) }
        }
        let sessions = rows.compactMap { row -> (summary: SessionSummary, lastUsed: Int64, createdAt: Int64)? in
            let lastUsed = max(row.lastUsed, tokenUses.lastUse(digest: row.digest) ?? 0) / 1000
            let expiresAt = Self.expiry(createdAt: row.createdAt, lastUsedAt: lastUsed)
            guard expiresAt > now / 1000 else { return nil }
            let summary = SessionSummary(
                sessionID: Self.sessionID(digest: row.digest), createdAt: Date(unixSeconds: row.createdAt),
                lastUsedAt: Date(unixSeconds: lastUsed), expiresAt: Date(unixSeconds: expiresAt), userAgent: row.userAgent,
                current: row.digest == authenticated.tokenHash)
            return (summary, lastUsed, row.createdAt)
        }
        return sessions.sorted {
            ($0.lastUsed, $0.createdAt, $1.summary.sessionID) > ($1.lastUsed, $1.createdAt, $0.summary.sessionID)
        }.map(\.summary)
    }

    /// Ends one of the user's sessions at once (the current one included: a logout).
    /// - Throws: `sessionNotFound` when the user has no live session of that name.
    public func revoke(_ authenticated: AuthenticatedUser, sessionID: String) throws {
        let now = clock() / 1000
        try store.groupWrite { connection in
            let digests = try connection.query(
                "SELECT token_hash FROM tokens WHERE user_id = ? AND expires_at > ?",
                [.integer(authenticated.userID), .integer(now)]
            ) { $0.blob(0) }
            guard let digest = digests.first(where: { Self.sessionID(digest: $0) == sessionID }) else {
                throw AccountsError.sessionNotFound
            }
            try connection.execute("DELETE FROM tokens WHERE token_hash = ?", [.blob(digest)])
        }
    }

    /// Inserts a new token of the user, made (and so last used) at `now` (Unix seconds)
    /// by a request with `userAgent`, and revokes the user's least recently used tokens
    /// beyond `Accounts.tokensPerUser` (expired ones are deleted before by the caller).
    /// The caller holds the user's row lock.
    static func issue(
        for userID: Int64, user: User, userAgent: String?, now: Int64, in connection: any UserDataConnection
    ) throws -> Session {
        let token = AccessToken.generate()
        let expiresAt = expiry(createdAt: now, lastUsedAt: now)
        guard let digest = AccessToken.digest(token) else { preconditionFailure("a generated token is always well formed") }
        try connection.execute(
            """
            INSERT INTO tokens (token_hash, user_id, created_at, expires_at, last_used_at, user_agent)
            VALUES (?, ?, ?, ?, ?, ?)
            """,
            [.blob(digest), .integer(userID), .integer(now), .integer(expiresAt), .integer(now * 1000),
             userAgent.map { .text(String($0.prefix(userAgentLength))) } ?? .null])
        let live = try connection.queryFirst(
            "SELECT count(*) FROM tokens WHERE user_id = ? AND expires_at > ?", [.integer(userID), .integer(now)]
        ) { $0.int64(0) } ?? 0
        if live > Int64(Accounts.tokensPerUser) {
            let revoked = try connection.query(
                """
                SELECT token_hash FROM tokens WHERE user_id = ? AND token_hash <> ?
                ORDER BY last_used_at, created_at, token_hash LIMIT ?
                """,
                [.integer(userID), .blob(digest), .integer(live - Int64(Accounts.tokensPerUser))]
            ) { $0.blob(0) }
            for tokenHash in revoked {
                try connection.execute("DELETE FROM tokens WHERE token_hash = ?", [.blob(tokenHash)])
            }
        }
        return Session(user: user, token: token, expiresAt: Date(unixSeconds: expiresAt))
    }

}
