import Accounts
import HTTPServer
import Synchronization

/// `--user-write-rate`: each user's writes (POST, PUT, PATCH, DELETE with a bearer
/// token) average at most `rate` a second, in bursts of up to `burstFactor` times as
/// many: a token bucket per user (`WriteBucket`). A write past it is refused with a
/// 429 and `Retry-After` before its handler runs, so it changes nothing. Per instance:
/// each instance keeps its own buckets in memory.
///
/// The bucket is the user's, not the token's: a user with many tokens has one. Finding
/// the user must not cost the hot path a round trip (on PostgreSQL, `PUT /favorites`
/// and `PUT /recents` check their token inside the write's one statement), so the
/// limiter remembers each token digest's user from the first write that presented it
/// (a token never changes user) and authenticates only digests it does not know. A
/// remembered digest whose token was revoked since still finds its user's bucket, and
/// its handler then answers 401 as always.
///
/// Both tables are split into stripes, each behind its own lock, by digest and by user,
/// so writers of different users rarely meet on a lock; both are bounded: the digests
/// by `rememberedTokens` (a full stripe forgets an entry to take a new one), the
/// buckets by sweeping out full ones, which are the same as new ones.
public final class UserWriteLimiter: Sendable {
    /// How many times `rate` one burst may hold.
    public static let burstFactor = 10
    /// Token digests remembered at most, over all stripes.
    static let rememberedTokens = 65_536
    static let stripeCount = 64
    /// Buckets a stripe holds before it sweeps out the full ones.
    static let bucketsBeforeSweep = 256

    private struct Buckets {
        var byUser: [Int64: WriteBucket] = [:]
        var sweepAt = UserWriteLimiter.bucketsBeforeSweep
    }

    private let accounts: Accounts
    private let refusals: Refusals
    private let now: @Sendable () -> UInt64
    private let rate: Int
    /// Nanoseconds of credit one write costs, and a full bucket's.
    private let cost: UInt64
    private let capacity: UInt64
    private let tokenUsers: [Stripe<[SIMD4<UInt64>: Int64]>]
    private let buckets: [Stripe<Buckets>]

    /// - Parameters:
    ///   - rate: writes a second per user on average, at least 1.
    ///   - now: monotonic nanoseconds; tests pass their own clock, nil reads the system's.
    public init(rate: Int, accounts: Accounts, refusals: Refusals, now: (@Sendable () -> UInt64)? = nil) {
        precondition(rate > 0, "0 lifts the limit: no limiter then")
        self.accounts = accounts
        self.refusals = refusals
        self.now = now ?? { MonotonicClock.now() }
        self.rate = rate
        cost = 1_000_000_000 / UInt64(rate)
        capacity = cost * UInt64(rate * Self.burstFactor)
        tokenUsers = (0..<Self.stripeCount).map { _ in Stripe([:]) }
        buckets = (0..<Self.stripeCount).map { _ in Stripe(Buckets()) }
    }

    /// Counts the write `request` makes against the bucket of its bearer token's user.
    /// - Throws: a 429 with `Retry-After` when the bucket is empty (recorded in
    ///   `Refusals` as `user-writes`); the 401s of `Sessions.bearerToken` and
    ///   `AccountsError.invalidToken` for a token that does not work (and was never seen
    ///   working), as the write's handler would answer.
    public func admit(_ request: HTTPRequest) throws {
        let token = try Sessions.bearerToken(request)
        guard let userID = try user(ofToken: token) else { throw AccountsError.invalidToken }
        let time = now()
        let retryAfter = buckets[Int(UInt64(bitPattern: userID) % UInt64(Self.stripeCount))].state.withLock { stripe in
            if stripe.byUser[userID] == nil, stripe.byUser.count >= stripe.sweepAt {
                stripe.byUser = stripe.byUser.filter { _, bucket in !bucket.isFull(capacity: capacity, now: time) }
                stripe.sweepAt = max(Self.bucketsBeforeSweep, stripe.byUser.count * 2)
            }
            return stripe.byUser[userID, default: WriteBucket(capacity: capacity, now: time)]
                .take(cost: cost, capacity: capacity, now: time)
        }
        guard let retryAfter else { return }
        refusals.record(.userWrites, client: request.remoteAddress)
        throw HTTPError(
            .tooManyRequests,
            detail: "a user writes at most \(rate) times a second on average, in bursts of up to "
                + "\((rate * Self.burstFactor).groupedByThousands); try again in \(retryAfter) s",
            headers: HTTPHeaders([("Retry-After", String(retryAfter))]))
    }

    /// The user of `token`: remembered, or authenticated (off the event loop) and
    /// remembered; nil for a token that cannot be one of ours.
    private func user(ofToken token: String) throws -> Int64? {
        guard let digest = AccessToken.digest(token) else { return nil }
        let key = digest.withUnsafeBytes { $0.loadUnaligned(as: SIMD4<UInt64>.self) }
        let stripe = tokenUsers[Int(key[0] % UInt64(Self.stripeCount))]
        if let userID = stripe.state.withLock({ $0[key] }) { return userID }
        let userID = try accounts.sessions.authenticate(token: token).userID
        stripe.state.withLock { users in
            if users.count >= Self.rememberedTokens / Self.stripeCount, let any = users.keys.first {
                users.removeValue(forKey: any)
            }
            users[key] = userID
        }
        return userID
    }
}

/// One stripe of a table and its lock (a `Mutex` cannot be an array's element itself).
private final class Stripe<Value: Sendable>: Sendable {
    let state: Mutex<Value>

    init(_ value: Value) {
        state = Mutex(value)
    }
}
