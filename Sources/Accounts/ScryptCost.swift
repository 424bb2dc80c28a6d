/// The scrypt work factors of a password hash (RFC 7914 §2): `N = 2^log2Rounds`
/// (CPU/memory cost), `r` (block size) and `p` (parallelism). Memory per hash is
/// about `128 · N · r` bytes: 128 MiB for `.owasp`.
///
/// Stored inside every hash string, so the cost can be raised later: a hash with
/// other parameters is redone on the owner's next successful login.
public struct ScryptCost: Sendable, Hashable, CustomStringConvertible {
    public let log2Rounds: Int
    public let blockSize: Int
    public let parallelism: Int

    /// The bounds accepted, also when reading a stored hash, so a corrupted or
    /// tampered row cannot ask for gigabytes of memory.
    static let log2RoundsRange = 1...20
    static let blockSizeRange = 1...32
    static let parallelismRange = 1...16

    public init(log2Rounds: Int, blockSize: Int, parallelism: Int) {
        precondition(Self.log2RoundsRange.contains(log2Rounds), "scrypt log2(N) must be in \(Self.log2RoundsRange)")
        precondition(Self.blockSizeRange.contains(blockSize), "scrypt r must be in \(Self.blockSizeRange)")
        precondition(Self.parallelismRange.contains(parallelism), "scrypt p must be in \(Self.parallelismRange)")
        self.log2Rounds = log2Rounds
        self.blockSize = blockSize
        self.parallelism = parallelism
    }

    /// OWASP Password Storage Cheat Sheet: N=2^17, r=8, p=1.
    public static let owasp = ScryptCost(log2Rounds: 17, blockSize: 8, parallelism: 1)

    /// N=2^10, r=8, p=1 (1 MiB, about a millisecond): for tests only, never in production.
    public static let test = ScryptCost(log2Rounds: 10, blockSize: 8, parallelism: 1)

    /// `N` itself.
    public var rounds: Int { 1 << log2Rounds }

    /// The parameter part of a hash string, e.g. `ln=17,r=8,p=1`.
    public var description: String { "ln=\(log2Rounds),r=\(blockSize),p=\(parallelism)" }
}
