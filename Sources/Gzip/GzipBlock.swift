import CZlib

/// A piece of a gzip member's data deflated on its own (RFC 1951), as pigz compresses
/// the blocks of a large file side by side: raw deflate data that ends on a byte
/// boundary (a sync flush, §3.2.4's empty stored block) and holds no final block, so
/// blocks laid one after another are one deflate stream (`member(of:)`).
///
/// A block's bytes depend only on what it holds, so a large body that changes in a few
/// places is compressed again only there; the rest is reused. Each block starts with an
/// empty window, which costs about a percent of compression at the sizes used here
/// (hundreds of kilobytes).
public struct GzipBlock: Sendable, Equatable {
    /// The deflate data.
    public let deflated: [UInt8]
    /// The CRC-32 and length of the bytes it holds.
    public let trailer: GzipTrailer

    /// Deflates `bytes` at zlib's `level` (5, as `Gzip.compress`).
    public init(compressing bytes: UnsafeBufferPointer<UInt8>, level: Int32 = 5) throws {
        var stream = z_stream()
        // Negative window bits: raw deflate, without zlib's or gzip's header and trailer.
        var code = deflateInit2_(
            &stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard code == Z_OK else { throw GzipError(operation: "deflateInit2", code: code, message: "cannot start") }
        defer { deflateEnd(&stream) }
        // deflateBound covers a finished stream; a sync flush adds at most its empty stored block.
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 16)
        var left: uInt = 0
        output.withUnsafeMutableBufferPointer { destination in
            stream.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress)
            stream.avail_in = uInt(bytes.count)
            stream.next_out = destination.baseAddress
            stream.avail_out = uInt(destination.count)
            code = deflate(&stream, Z_SYNC_FLUSH)
            left = stream.avail_out
        }
        // With room left over, zlib has consumed all the input and written the whole flush.
        guard code == Z_OK, stream.avail_in == 0, left > 0 else {
            throw GzipError(operation: "deflate", code: code, message: stream.msg.map { String(cString: $0) } ?? "output full")
        }
        output.removeSubrange((output.count - Int(left))...)
        deflated = output
        trailer = GzipTrailer(of: bytes)
    }

    /// A block as stored: its deflate data and the trailer of what it holds, which the
    /// caller vouches for.
    public init(deflated: [UInt8], trailer: GzipTrailer) {
        self.deflated = deflated
        self.trailer = trailer
    }

    /// One gzip member holding the blocks' bytes in order: the header `Gzip.compress`
    /// writes, the blocks, an empty final block, and the trailer of the whole, whose
    /// CRC-32 is combined from the blocks' (zlib's `crc32_combine`).
    public static func member(of blocks: [GzipBlock]) -> [UInt8] {
        var member: [UInt8] = []
        member.reserveCapacity(blocks.reduce(header.count + finalBlock.count + 8) { $0 + $1.deflated.count })
        member += header
        var crc: uLong = crc32_z(0, nil, 0)
        var size: UInt32 = 0
        for block in blocks {
            member += block.deflated
            crc = crc32_combine(crc, uLong(block.trailer.crc32), off_t(block.trailer.size))
            size &+= block.trailer.size
        }
        member += finalBlock
        for value in [UInt32(truncatingIfNeeded: crc), size] {
            for shift in stride(from: 0, to: 32, by: 8) { member.append(UInt8(truncatingIfNeeded: value >> shift)) }
        }
        return member
    }

    /// RFC 1952 §2.3: the magic bytes, deflate, no flags, no time, no extra flags (zlib's
    /// for levels 2 to 8), Unix; what zlib writes before `Gzip.compress`'s data.
    private static let header: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03]
    /// An empty fixed-Huffman block with its final bit set (RFC 1951 §3.2.3, §3.2.6): the
    /// end of the stream, as zlib finishes one that has nothing left to write.
    private static let finalBlock: [UInt8] = [0x03, 0x00]
}
