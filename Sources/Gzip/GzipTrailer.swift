import CZlib

/// The end of a gzip member (RFC 1952 §2.3.1): the CRC-32 of the uncompressed bytes
/// and their length modulo 2³², both little-endian. Tells, without decompressing, whether
/// a stored gzip copy is of given bytes.
public struct GzipTrailer: Hashable, Sendable {
    public var crc32: UInt32
    public var size: UInt32

    /// A trailer as stored.
    public init(crc32: UInt32, size: UInt32) {
        self.crc32 = crc32
        self.size = size
    }

    /// The trailer `Gzip.compress` writes for `bytes`: zlib's CRC-32, one pass, no allocation.
    public init(of bytes: [UInt8]) {
        self = bytes.withUnsafeBufferPointer { GzipTrailer(of: $0) }
    }

    /// The trailer of the bytes `bytes` points at.
    public init(of bytes: UnsafeBufferPointer<UInt8>) {
        crc32 = UInt32(CZlib.crc32_z(0, bytes.baseAddress, bytes.count))
        size = UInt32(truncatingIfNeeded: bytes.count)
    }

    /// The trailer of a single gzip member, its last eight bytes; nil if too short to be one.
    public init?(ofMember member: [UInt8]) {
        guard member.count >= 18 else { return nil }  // A 10-byte header, the data, an 8-byte trailer.
        func littleEndian(at offset: Int) -> UInt32 {
            (0..<4).reduce(0) { $0 | UInt32(member[offset + $1]) << (8 * $1) }
        }
        crc32 = littleEndian(at: member.count - 8)
        size = littleEndian(at: member.count - 4)
    }
}
