import Basics
import Dispatch
import Descriptors
import Glibc
import Synchronization

/// Packs assembled into one file each: `<data-dir>/image-packs/<tag>.tar`. A pack served
/// from its file is one `sendfile(2)` stream, where one laid out over the kept images
/// costs a header, an open and a close per photo (24 ms of CPU for a pack of 1,100
/// thumbnails, against 2 ms for nginx sending a file of the same bytes), and an image
/// evicted mid-download cannot cut it.
///
/// A pack is assembled in the background after it is first served whole from its images
/// (`assemble`), and answered from its file from then on (`file(etag:)`). At most
/// `capacity` bytes are kept, the least recently served pack removed first; a download
/// already sending a removed file goes on (its descriptor keeps it), one resumed after
/// that is cut as the `StreamedBody` contract says.
///
/// The files are a cache of bytes the kept images give again: they are never flushed
/// (fsync), and the folder is emptied at every start, so a crash leaves nothing that is
/// served. `Sendable`: the state is behind a lock, the writing on one serial queue.
public final class PackFiles: Sendable {
    /// An assembled pack.
    public struct File: Sendable, Equatable {
        public let path: String
        public let length: Int
    }

    private struct State {
        /// Each file's length, by the pack's tag.
        var lengths: [String: Int] = [:]
        /// The tags, least recently served first.
        var order: [String] = []
        var bytes = 0
        /// Tags being written.
        var assembling: Set<String> = []
    }

    public let directory: String
    /// Bytes the files take at most.
    public let capacity: Int
    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "past-nyc.pack-files", qos: .utility)

    /// Makes `directory` if need be and empties it.
    public init(directory: String, capacity: Int) throws(SystemCallError) {
        self.directory = directory
        self.capacity = capacity
        try ImageCopy.makeFolder(directory)
        try ImageCopy.removeContents(of: directory)
    }

    /// The file of the pack tagged `etag`, if it is assembled; it moves to the back of
    /// the removal order.
    public func file(etag: String) -> File? {
        state.withLock { state in
            guard let length = state.lengths[etag] else { return nil }
            if let position = state.order.lastIndex(of: etag), position != state.order.count - 1 {
                state.order.append(state.order.remove(at: position))
            }
            return File(path: path(etag: etag), length: length)
        }
    }

    /// Writes `pack` into its file in the background, unless it is there or under way, or
    /// larger than the whole capacity. Nothing is written when a kept image it holds is
    /// gone by then (evicted): the pack is laid out again at its next request.
    /// - Parameter assembled: called on the queue once the file is written, or nil when
    ///   it could not be (for tests); not called when nothing was started.
    public func assemble(_ pack: ImagePack, assembled: (@Sendable (File?) -> Void)? = nil) {
        let starting = pack.length <= capacity && state.withLock { state in
            guard state.lengths[pack.etag] == nil, !state.assembling.contains(pack.etag) else { return false }
            state.assembling.insert(pack.etag)
            return true
        }
        guard starting else { return }
        queue.async { [self] in
            let path = path(etag: pack.etag)
            let written = (try? write(pack, to: path)) != nil
            let removed = state.withLock { state -> [String] in
                state.assembling.remove(pack.etag)
                guard written else { return [] }
                var removed: [String] = []
                while state.bytes + pack.length > capacity, !state.order.isEmpty {
                    let oldest = state.order.removeFirst()
                    state.bytes -= state.lengths.removeValue(forKey: oldest)!
                    removed.append(oldest)
                }
                state.lengths[pack.etag] = pack.length
                state.order.append(pack.etag)
                state.bytes += pack.length
                return removed
            }
            for etag in removed { _ = unlink(self.path(etag: etag)) }
            assembled?(written ? File(path: path, length: pack.length) : nil)
        }
    }

    /// Bytes the files take now.
    public var bytes: Int { state.withLock { $0.bytes } }

    /// The pack's segments one after the other into a temporary file renamed to `path`.
    private func write(_ pack: ImagePack, to path: String) throws(SystemCallError) {
        let temporary = path + ".tmp"
        let raw = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard raw >= 0 else { throw SystemCallError(name: "open \(temporary)", errno: errno) }
        let file = FileDescriptor(raw)
        do throws(SystemCallError) {
            for position in 0..<pack.segmentCount {
                switch pack.segment(position) {
                case .bytes(let bytes):
                    try Self.write(bytes, to: file, path: temporary)
                case .file(let member):
                    // A member's file is never the last segment (the archive's end is).
                    let size = pack.segmentStart(position + 1) - pack.segmentStart(position)
                    try Self.write(try ImageMaker.read(member, bytes: size), to: file, path: temporary)
                }
            }
            file.close()
            guard rename(temporary, path) == 0 else { throw SystemCallError(name: "rename \(temporary)", errno: errno) }
        } catch {
            _ = unlink(temporary)
            throw error
        }
    }

    private static func write(_ bytes: [UInt8], to file: FileDescriptor, path: String) throws(SystemCallError) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(file.rawValue, $0.baseAddress! + written, bytes.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemCallError(name: "write \(path)", errno: errno)
            }
            written += count
        }
    }

    /// A tag is a quoted hex digest: its file is named by the digest.
    private func path(etag: String) -> String {
        directory + "/" + etag.filter { $0 != "\"" } + ".tar"
    }
}
