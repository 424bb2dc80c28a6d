import CEpoll
import Descriptors
import Glibc

/// Sends a range of a `StreamedBody` to a non-blocking socket, one system call at a
/// time, picking up where the last one stopped: `send(2)` for made bytes, `sendfile(2)`
/// for file regions, so a file's bytes go from the page cache to the socket without
/// passing through this process. Holds the descriptor of the file being sent, and only
/// that one; it is closed when its region is done or the sender goes.
///
/// Owned by one connection, on its event loop (or by `InMemoryConnection`): not `Sendable`.
final class StreamedBodySender {
    private let body: any StreamedBody
    /// The next byte to send, and where the range ends.
    private(set) var position: Int
    private let end: Int
    /// The segment holding `position`, and what of it is loaded: its bytes, or its open
    /// file and the file offset of the segment's first byte.
    private var segment: Int
    private var loaded: Loaded?

    private enum Loaded {
        case bytes([UInt8])
        case file(FileDescriptor, offset: Int)
    }

    /// `sendfile(2)` moves at most this much in one call (Linux caps every call there).
    private static let maxSendfileBytes = 0x7fff_f000

    init(_ body: any StreamedBody, range: Range<Int>) {
        self.body = body
        position = range.lowerBound
        end = range.upperBound
        segment = range.isEmpty ? 0 : body.segmentIndex(containing: range.lowerBound)
    }

    var isFinished: Bool { position >= end }

    /// Sends what the socket takes of the current segment: the bytes written, or
    /// `wouldBlock`. Made bytes followed by more of the body go with `MSG_MORE`, so a
    /// response head or an archive member's header leaves in one packet with the file
    /// data after it instead of alone.
    func send(to socket: Int32) throws(HTTPServerError) -> IOResult<Int> {
        let loaded = try load()
        let segmentStart = body.segmentStart(segment)
        let segmentEnd = min(body.segmentEnd(segment), end)
        let count = segmentEnd - position
        let result: IOResult<Int>
        switch loaded {
        case .bytes(let bytes):
            let flags = Int32(MSG_NOSIGNAL) | (segmentEnd < end ? Int32(MSG_MORE) : 0)
            let from = position - segmentStart
            result = try systemCall("send") {
                bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress! + from, count, flags) }
            }
        case .file(let file, let offset):
            var fileOffset = off_t(offset + position - segmentStart)
            result = try systemCall("sendfile") {
                sendfile(socket, file.rawValue, &fileOffset, min(count, Self.maxSendfileBytes))
            }
            if case .done(0) = result, count > 0 {
                // The file shrank after it was opened: what the head promised cannot be sent.
                throw .truncatedFile(path: Self.path(of: body.segment(segment)), size: Int(fileOffset), needed: offset + segmentEnd - segmentStart)
            }
        }
        if case .done(let written) = result { advance(by: written, segmentEnd: segmentEnd) }
        return result
    }

    /// Everything not sent yet, read into memory: for `InMemoryConnection`, whose peer
    /// is a test that reads it all.
    func readRest() throws(HTTPServerError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(end - position)
        while !isFinished {
            let loaded = try load()
            let segmentStart = body.segmentStart(segment)
            let segmentEnd = min(body.segmentEnd(segment), end)
            let count = segmentEnd - position
            switch loaded {
            case .bytes(let made):
                bytes += made[(position - segmentStart)..<(segmentEnd - segmentStart)]
            case .file(let file, let offset):
                let start = bytes.count
                bytes += repeatElement(0, count: count)
                let fileOffset = off_t(offset + position - segmentStart)
                let read = bytes.withUnsafeMutableBytes { buffer in
                    pread(file.rawValue, buffer.baseAddress! + start, count, fileOffset)
                }
                guard read >= 0 else { throw .systemCall(name: "pread", errno: errno) }
                guard read == count else {
                    throw .truncatedFile(path: Self.path(of: body.segment(segment)), size: offset + read, needed: offset + count)
                }
            }
            advance(by: count, segmentEnd: segmentEnd)
        }
        return bytes
    }

    private func advance(by written: Int, segmentEnd: Int) {
        position += written
        if position >= segmentEnd {
            segment += 1
            loaded = nil  // Closes the file, if it was one.
        }
    }

    /// The current segment, opened (a file, checked to be long enough) if not yet.
    private func load() throws(HTTPServerError) -> Loaded {
        if let loaded { return loaded }
        let made: Loaded
        switch body.segment(segment) {
        case .bytes(let bytes):
            made = .bytes(bytes)
        case .file(let path, let offset):
            let file = FileDescriptor(try systemCallValue("open") { open(path, O_RDONLY | O_CLOEXEC) })
            var status = stat()
            _ = try systemCallValue("fstat") { fstat(file.rawValue, &status) }
            let needed = offset + body.segmentEnd(segment) - body.segmentStart(segment)
            guard Int(status.st_size) >= needed else { throw .truncatedFile(path: path, size: Int(status.st_size), needed: needed) }
            made = .file(file, offset: offset)
        }
        loaded = made
        return made
    }

    private static func path(of segment: StreamedSegment) -> String {
        if case .file(let path, _) = segment { return path }
        return ""
    }
}
