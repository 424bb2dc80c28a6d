import Basics
import Crypto
import CryptoExtras
import Synchronization

/// Hashes and verifies passwords with scrypt, bounded in how many run at once.
///
/// One `.owasp` hash takes about half a second and 128 MiB, and BoringSSL ignores
/// any memory cap, so at most `concurrentHashes` run at a time, at most `queuedHashes`
/// more wait for a slot, and anything beyond that fails at once with
/// `AccountsError.hasherBusy` (the API answers 503 with `Retry-After`) instead of
/// piling up memory and latency. The hashes run on a `WorkerPool` of their own, at a
/// lower priority (nice 10) than the threads that serve requests: when scrypt and
/// serving compete for the CPU, serving gets about nine tenths of it, so a login flood
/// cannot starve catalog reads.
///
/// One client address has at most `hashesPerClient` hashes admitted (running or
/// queued); one more fails at once with `AccountsError.tooManyHashes` (429). As long as
/// `hashesPerClient` is below `concurrentHashes + queuedHashes`, one address alone cannot
/// fill the hasher, so its flood never makes another address's request answer 503;
/// only many addresses at once can.
public final class PasswordHasher: Sendable {
    /// The cost of new hashes; older hashes keep verifying with their own.
    public let cost: ScryptCost
    public let concurrentHashes: Int
    public let queuedHashes: Int
    /// Hashes one client address may have admitted at once; 0 lifts the limit.
    public let hashesPerClient: Int

    /// The hasher of `past-nyc serve`: 2 running, 4 queued.
    public static let defaultConcurrentHashes = 2
    public static let defaultQueuedHashes = 4

    static let saltByteCount = 16
    static let hashByteCount = 32

    /// How much nicer than the process the hashing threads run.
    static let niceness: Int32 = 10

    /// `concurrentHashes` threads; up to `queuedHashes` more hashes wait in its queue.
    private let pool: WorkerPool
    /// Hashes admitted per client address; an address leaves the table with its last hash,
    /// so it holds no more entries than hashes are being asked for.
    private let admittedPerClient = Mutex<[String: Int]>([:])

    /// Throws when the system refuses the hashing threads.
    public init(
        cost: ScryptCost, concurrentHashes: Int = defaultConcurrentHashes, queuedHashes: Int = defaultQueuedHashes,
        hashesPerClient: Int = 0
    ) throws {
        precondition(concurrentHashes > 0 && queuedHashes >= 0, "need at least one hashing slot")
        self.cost = cost
        self.concurrentHashes = concurrentHashes
        self.queuedHashes = queuedHashes
        self.hashesPerClient = hashesPerClient
        self.pool = try WorkerPool(
            threadCount: concurrentHashes, name: "scrypt", waitingLimit: queuedHashes, niceness: Self.niceness)
    }

    deinit {
        pool.stop()
    }

    /// Hashes running or waiting for a slot right now.
    public var hashesInFlight: Int { pool.jobsInFlight }

    /// A new salted hash of `password` at the current cost, for a request from `clientAddress`.
    func hash(_ password: String, clientAddress: String) throws -> PasswordHash {
        let salt = SecretBytes.random(count: Self.saltByteCount)
        let cost = cost
        let derived = try withSlot(clientAddress: clientAddress) { try Self.derive(password, salt: salt, cost: cost) }
        return PasswordHash(cost: cost, salt: salt, hash: derived)
    }

    /// Whether `password` matches `stored`, derived with the stored cost and
    /// compared in constant time, for a request from `clientAddress`.
    func verify(_ password: String, against stored: PasswordHash, clientAddress: String) throws -> Bool {
        let derived = try withSlot(clientAddress: clientAddress) {
            try Self.derive(password, salt: stored.salt, cost: stored.cost)
        }
        return SecretBytes.constantTimeEquals(derived, stored.hash)
    }

    /// Runs `body` on a hashing thread as soon as one is free. Throws at once, without
    /// running it, `tooManyHashes` when `clientAddress` already has `hashesPerClient`
    /// admitted, and `hasherBusy` when `concurrentHashes + queuedHashes` are. Internal,
    /// not private: tests hold slots with it to fill the hasher without racing a real hash.
    func withSlot(clientAddress: String, _ body: @escaping @Sendable () throws -> [UInt8]) throws -> [UInt8] {
        try admit(clientAddress)
        defer { release(clientAddress) }
        do {
            return try pool.run(body)
        } catch is WorkerPoolError {
            // The pool only stops when this hasher goes away, so a refusal means it is full.
            throw AccountsError.hasherBusy(retryAfterSeconds: 1)
        }
    }

    /// Hashes `clientAddress` has admitted right now.
    func hashesInFlight(clientAddress: String) -> Int {
        admittedPerClient.withLock { $0[clientAddress] ?? 0 }
    }

    private func admit(_ clientAddress: String) throws {
        let limit = hashesPerClient
        let admitted = admittedPerClient.withLock { table in
            let current = table[clientAddress] ?? 0
            guard limit == 0 || current < limit else { return false }
            table[clientAddress] = current + 1
            return true
        }
        // A hash takes about half a second: by then one of the address's own has finished.
        guard admitted else { throw AccountsError.tooManyHashes(retryAfterSeconds: 1) }
    }

    private func release(_ clientAddress: String) {
        admittedPerClient.withLock { table in
            let remaining = (table[clientAddress] ?? 1) - 1
            table[clientAddress] = remaining > 0 ? remaining : nil
        }
    }

    static func derive(_ password: String, salt: [UInt8], cost: ScryptCost) throws -> [UInt8] {
        let key = try KDF.Scrypt.deriveKey(
            from: Array(password.utf8), salt: salt, outputByteCount: hashByteCount,
            rounds: cost.rounds, blockSize: cost.blockSize, parallelism: cost.parallelism)
        return key.withUnsafeBytes { Array($0) }
    }
}
