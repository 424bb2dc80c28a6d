import Descriptors
import Glibc
import Testing

@testable import Gzip

@Suite struct GzipFileReaderFailureTests {
    /// zlib refuses the stream: the reader must close its file and free its buffer once
    /// (it once did both in `init` and again in `deinit`: a double free).
    @Test func aStreamZlibRefusesClosesTheFileOnce() throws {
        var ends: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0, &ends) == 0)
        let file = FileDescriptor(ends[0])
        let peer = FileDescriptor(ends[1])
        // 99 is no valid window size: inflateInit2 fails with Z_STREAM_ERROR.
        #expect(throws: GzipError.self) { try GzipFileReader(file: file, windowBits: 99) }
        #expect(!file.isOpen)
        // The other end sees the stream end: the reader's end is closed for real.
        var byte: UInt8 = 0
        #expect(recv(peer.rawValue, &byte, 1, Int32(MSG_DONTWAIT)) == 0)
    }
}
