import CZlib

/// One-shot gzip compression (RFC 1952) for response bodies.
public enum Gzip {
    /// `windowBits` 15 + 16 asks zlib for a gzip header and trailer instead of zlib's.
    static let gzipWindowBits: Int32 = 15 + 16

    /// Compresses `input` into a complete gzip member.
    /// Level 1..9; the default favours speed, as bodies are compressed per request.
    public static func compress(_ input: [UInt8], level: Int32 = 5) throws -> [UInt8] {
        var stream = z_stream()
        var code = deflateInit2_(
            &stream, level, Z_DEFLATED, gzipWindowBits, 8, Z_DEFAULT_STRATEGY,
            ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard code == Z_OK else { throw GzipError(operation: "deflateInit2", code: code, message: "cannot start") }
        defer { deflateEnd(&stream) }

        let bound = Int(deflateBound(&stream, uLong(input.count)))
        var output = [UInt8](repeating: 0, count: bound)
        var produced = 0
        input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.avail_in = uInt(source.count)
                stream.next_out = destination.baseAddress
                stream.avail_out = uInt(destination.count)
                code = deflate(&stream, Z_FINISH)
                produced = destination.count - Int(stream.avail_out)
            }
        }
        guard code == Z_STREAM_END else {
            throw GzipError(operation: "deflate", code: code, message: stream.msg.map { String(cString: $0) } ?? "")
        }
        output.removeSubrange(produced...)
        return output
    }
}
