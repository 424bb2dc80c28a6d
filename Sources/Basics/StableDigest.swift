/// A 64-bit FNV-1a digest, stable across processes and restarts (unlike `Hasher`): for
/// what a cursor carries to recognise the list it pages through.
public struct StableDigest: Sendable {
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    /// Mixes in `bytes`, then a separator, so `("ab", "c")` and `("a", "bc")` differ.
    public mutating func mix(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            value ^= UInt64(byte)
            value &*= Self.prime
        }
        value ^= 0xFF
        value &*= Self.prime
    }

    /// Mixes in the eight bytes of `word`, least significant first.
    public mutating func mix(_ word: UInt64) {
        mix((0..<8).map { UInt8(truncatingIfNeeded: word >> ($0 * 8)) })
    }

    /// Mixes in an optional integer; absence mixes as `UInt64.max`, which no year or index is.
    public mutating func mix(_ integer: Int?) {
        mix(integer.map { UInt64(bitPattern: Int64($0)) } ?? .max)
    }

    private static let prime: UInt64 = 0x0000_0100_0000_01b3
}
