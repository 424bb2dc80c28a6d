import Basics
import Crypto
import CryptoExtras

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
public final class PasswordHasher: Sendable {
    /// The cost of new hashes; older hashes keep verifying with their own.
    public let cost: ScryptCost
    public let concurrentHashes: Int
    public let queuedHashes: Int

    static let saltByteCount = 16
    static let hashByteCount = 32

    /// How much nicer than the process the hashing threads run.
    static let niceness: Int32 = 10

    /// `concurrentHashes` threads; up to `queuedHashes` more hashes wait in its queue.
    private let pool: WorkerPool

    /// Throws when the system refuses the hashing threads.
    public init(cost: ScryptCost, concurrentHashes: Int = 2, queuedHashes: Int = 4) throws {
        precondition(concurrentHashes > 0 && queuedHashes >= 0, "need at least one hashing slot")
        self.cost = cost
        self.concurrentHashes = concurrentHashes
        self.queuedHashes = queuedHashes
        self.pool = try WorkerPool(
            threadCount: concurrentHashes, name: "scrypt", waitingLimit: queuedHashes, niceness: Self.niceness)
    }

    deinit {
        pool.stop()
    }

    /// Hashes running or waiting for a slot right now.
    public var hashesInFlight: Int { pool.jobsInFlight }

    /// A new salted hash of `password` at the current cost.
    func hash(_ password: String) throws -> PasswordHash {
        let salt = SecretBytes.random(count: Self.saltByteCount)
        let cost = cost
        let derived = try withSlot { try Self.derive(password, salt: salt, cost: cost) }
        return PasswordHash(cost: cost, salt: salt, hash: derived)
    }

    /// Whether `password` matches `stored`, derived with the stored cost and
    /// compared in constant time.
    func verify(_ password: String, against stored: PasswordHash) throws -> Bool {
        let derived = try withSlot { try Self.derive(password, salt: stored.salt, cost: stored.cost) }
        return SecretBytes.constantTimeEquals(derived, stored.hash)
    }

    /// Runs `body` on a hashing thread as soon as one is free; throws `hasherBusy` at
    /// once when `concurrentHashes + queuedHashes` are already admitted. Internal, not
    /// private: tests hold a slot with it to fill the hasher without racing a real hash.
    func withSlot(_ body: @escaping @Sendable () throws -> [UInt8]) throws -> [UInt8] {
        do {
            return try pool.run(body)
        } catch is WorkerPoolError {
            // The pool only stops when this hasher goes away, so a refusal means it is full.
            throw AccountsError.hasherBusy(retryAfterSeconds: 1)
        }
    }

    static func derive(_ password: String, salt: [UInt8], cost: ScryptCost) throws -> [UInt8] {
        let key = try KDF.Scrypt.deriveKey(
            from: Array(password.utf8), salt: salt, outputByteCount: hashByteCount,
            rounds: cost.rounds, blockSize: cost.blockSize, parallelism: cost.parallelism)
        return key.withUnsafeBytes { Array($0) }
    }
}
