import Crypto
import CryptoExtras
import Synchronization

/// Hashes and verifies passwords with scrypt, bounded in how many run at once.
///
/// One `.owasp` hash takes about half a second and 128 MiB, and BoringSSL ignores
/// any memory cap, so at most `concurrentHashes` run at a time, at most `queuedHashes`
/// more wait for a slot, and anything beyond that fails at once with
/// `AccountsError.hasherBusy` (the API answers 503 with `Retry-After`) instead of
/// piling up memory and latency. The hashes themselves run on `BackgroundThreads`
/// at a lower priority than the threads that serve requests.
public final class PasswordHasher: Sendable {
    /// The cost of new hashes; older hashes keep verifying with their own.
    public let cost: ScryptCost
    public let concurrentHashes: Int
    public let queuedHashes: Int

    static let saltByteCount = 16
    static let hashByteCount = 32

    /// Running plus waiting hashes.
    private let admitted = Mutex(0)
    /// `concurrentHashes` threads: jobs beyond them wait in its queue.
    private let threads: BackgroundThreads

    public init(cost: ScryptCost, concurrentHashes: Int = 2, queuedHashes: Int = 4) {
        precondition(concurrentHashes > 0 && queuedHashes >= 0, "need at least one hashing slot")
        self.cost = cost
        self.concurrentHashes = concurrentHashes
        self.queuedHashes = queuedHashes
        self.threads = BackgroundThreads(count: concurrentHashes, name: "password-hasher")
    }

    /// Hashes running or waiting for a slot right now.
    public var hashesInFlight: Int { admitted.withLock { $0 } }

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
        let limit = concurrentHashes + queuedHashes
        let isAdmitted = admitted.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
        guard isAdmitted else { throw AccountsError.hasherBusy(retryAfterSeconds: 1) }
        defer { admitted.withLock { $0 -= 1 } }
        return try threads.run(body)
    }

    static func derive(_ password: String, salt: [UInt8], cost: ScryptCost) throws -> [UInt8] {
        let key = try KDF.Scrypt.deriveKey(
            from: Array(password.utf8), salt: salt, outputByteCount: hashByteCount,
            rounds: cost.rounds, blockSize: cost.blockSize, parallelism: cost.parallelism)
        return key.withUnsafeBytes { Array($0) }
    }
}
