import CZlib
import Descriptors
import Glibc

/// Streams the decompressed bytes of a gzip file without holding the whole file in memory.
///
/// Not `Sendable`: it owns a file descriptor and a zlib stream used by one thread.
public final class GzipFileReader {
    private let file: FileDescriptor
    private var stream = z_stream()
    /// zlib keeps pointers into this buffer between calls, so it must not move: allocated once.
    private let input = UnsafeMutableBufferPointer<Bytef>.allocate(capacity: 64 * 1024)
    private var finished = false

    public convenience init(path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw GzipError(operation: "open \(path)", code: errno, message: String(cString: strerror(errno)))
        }
        // 15 + 32: zlib detects the gzip header itself.
        try self.init(file: FileDescriptor(descriptor), windowBits: 15 + 32)
    }

    /// Reads `file` (owning it from now on) with zlib's `windowBits`.
    ///
    /// Every stored property is set before anything can throw, so a failure here still
    /// runs `deinit`, which alone cleans up: `init` must not (it once freed `input` and
    /// closed the descriptor here, and `deinit` did both again).
    init(file: FileDescriptor, windowBits: Int32) throws {
        self.file = file
        let code = inflateInit2_(&stream, windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard code == Z_OK else {
            throw GzipError(operation: "inflateInit2", code: code, message: "cannot start")
        }
    }

    deinit {
        // Harmless on a stream whose init failed: zlib left no state to free.
        inflateEnd(&stream)
        file.close()
        input.deallocate()
    }

    /// Fills `buffer` with up to `buffer.count` decompressed bytes; returns how many, 0 at the end.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard !finished, buffer.count > 0 else { return 0 }
        stream.next_out = buffer.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.avail_out = uInt(buffer.count)
        while stream.avail_out > 0 {
            if stream.avail_in == 0 {
                let count = try fillInput()
                if count == 0 {
                    throw GzipError(operation: "inflate", code: Z_DATA_ERROR, message: "file ends inside the gzip stream")
                }
            }
            let code = inflate(&stream, Z_NO_FLUSH)
            if code == Z_STREAM_END {
                finished = true
                break
            }
            guard code == Z_OK else {
                throw GzipError(operation: "inflate", code: code, message: stream.msg.map { String(cString: $0) } ?? "corrupt data")
            }
        }
        return buffer.count - Int(stream.avail_out)
    }

    /// Calls `body` with each line (without its `\n`) and its 1-based number.
    public func forEachLine(_ body: (_ line: ArraySlice<UInt8>, _ number: Int) throws -> Void) throws {
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        var lineNumber = 0
        while true {
            let count = try chunk.withUnsafeMutableBytes { try read(into: $0) }
            if count == 0 { break }
            pending.append(contentsOf: chunk[0..<count])
            var lineStart = pending.startIndex
            while let newline = pending[lineStart...].firstIndex(of: UInt8(ascii: "\n")) {
                lineNumber += 1
                try body(pending[lineStart..<newline], lineNumber)
                lineStart = newline + 1
            }
            pending.removeSubrange(..<lineStart)
        }
        if !pending.isEmpty {
            lineNumber += 1
            try body(pending[...], lineNumber)
        }
    }

    private func fillInput() throws -> Int {
        while true {
            let count = Glibc.read(file.rawValue, input.baseAddress, input.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw GzipError(operation: "read", code: errno, message: String(cString: strerror(errno)))
            }
            stream.next_in = input.baseAddress
            stream.avail_in = uInt(count)
            return count
        }
    }
}
