import Basics
import Crypto
import Descriptors
import Glibc
import SQLite
import Synchronization

/// The disk copy of the photographs: `<data-dir>/images/`, one file per kept image in
/// 256 folders, and its SQLite index (`ImageIndex`), bounded to `capacity` bytes by
/// evicting the least recently served images first.
///
/// **Nothing torn is ever served.** An image is written under `tmp/`, flushed (fsync),
/// renamed into its folder and the folder flushed before its row is written
/// (https://lwn.net/Articles/457667/); a file's name holds its content's digest, so a
/// path never names other bytes. A start removes what a crash left (temporary files,
/// files without a row, rows without a file). A full disk only means an image is served
/// without being kept.
///
/// **Lookups are in memory**: the index is loaded at start and kept beside the file,
/// so a hit costs a dictionary lookup and a move in the recency order under a lock held
/// for that long. When each image was last served is written to the index with the next
/// image kept (and when the copy closes), in the same transaction: a crash loses some of
/// that order, never an image.
///
/// One process holds a copy at a time (an exclusive `flock(2)` on its folder): a server,
/// or `past-nyc images prefetch`.
///
/// `Sendable`: the mutable state is behind `state`, the index behind `index`.
public final class ImageCopy: Sendable {
    public let directory: String
    /// The most bytes kept at once.
    public let capacity: Int
    public let counters: ImageCacheCounters
    private let lock: ImageCopyLock
    private let index: Mutex<ImageIndex>
    private let state: Mutex<State>

    /// The in-memory view of the index.
    private struct State {
        var slots: [String: Int] = [:]
        /// By slot; nil for a free slot.
        var entries: [Entry?] = []
        var recency = RecencyList()
        var lastServed: [Int64] = []
        var keptBytes = 0
        /// The last `lastServed` given.
        var clock: Int64 = 0
        /// Slots served since their order was last written down, each once.
        var servedSinceWritten: [Int] = []
        var isServedSinceWritten: [Bool] = []

        mutating func add(_ entry: Entry, lastServed: Int64) -> Int {
            let slot = recency.append()
            if slot == entries.count {
                entries.append(entry)
                self.lastServed.append(lastServed)
                isServedSinceWritten.append(false)
            } else {
                entries[slot] = entry
                self.lastServed[slot] = lastServed
                isServedSinceWritten[slot] = false
            }
            slots[entry.key] = slot
            keptBytes += entry.image.bytes
            return slot
        }

        mutating func remove(slot: Int) -> Entry {
            let entry = entries[slot]!
            entries[slot] = nil
            slots[entry.key] = nil
            recency.remove(slot)
            keptBytes -= entry.image.bytes
            isServedSinceWritten[slot] = false
            return entry
        }

        mutating func touch(_ slot: Int) {
            recency.touch(slot)
            clock += 1
            lastServed[slot] = clock
            if !isServedSinceWritten[slot] {
                isServedSinceWritten[slot] = true
                servedSinceWritten.append(slot)
            }
        }

        /// The served order not yet written down, and forgets it.
        mutating func takeServed() -> [(key: String, lastServed: Int64)] {
            defer { servedSinceWritten.removeAll(keepingCapacity: true) }
            return servedSinceWritten.compactMap { slot in
                guard isServedSinceWritten[slot], let entry = entries[slot] else { return nil }
                isServedSinceWritten[slot] = false
                return (entry.key, lastServed[slot])
            }
        }
    }

    private struct Entry {
        let key: String
        let digest: String
        let image: KeptImage
    }

    /// What `keep` did with an image.
    public enum Keeping: Sendable, Equatable {
        case kept(KeptImage)
        /// Not kept (the disk is full, or the image is larger than the whole copy): the
        /// caller serves the bytes it has, this once.
        case notKept(reason: String)
    }

    /// The copy in `directory` (created if missing), tidied after whatever a crash left,
    /// and brought within `capacity`.
    public init(directory: String, capacity: Int, counters: ImageCacheCounters = ImageCacheCounters()) throws(ImageCopyError) {
        self.directory = directory
        self.capacity = capacity
        self.counters = counters
        do {
            try Self.makeFolder(directory)
            lock = try ImageCopyLock(directory: directory)
            try Self.makeFolder(directory + "/" + Self.temporaryFolder)
            for folder in 0..<256 { try Self.makeFolder(directory + "/" + Self.folderName(folder)) }
            try Self.removeContents(of: directory + "/" + Self.temporaryFolder)
        } catch let error as ImageCopyError {
            throw error
        } catch let error as SystemCallError {
            throw .system(error)
        } catch {
            throw .system(SystemCallError(name: "open \(directory)", errno: EIO))
        }
        let opened: ImageIndex
        let rows: [ImageIndex.Row]
        do {
            opened = try ImageIndex(path: directory + "/index.sqlite")
            rows = try opened.rows()
        } catch let error as SQLiteError {
            throw .index(error)
        } catch {
            throw .index(SQLiteError(code: 1, message: "\(error)"))
        }
        index = Mutex(opened)
        state = Mutex(State())
        try tidy(rows)
    }

    deinit {
        writeServedOrder()
    }

    /// The kept image of `variant`, if any; `serving` moves it to the back of the
    /// eviction order (it is being served).
    public func kept(_ variant: ImageVariant, serving: Bool = true) -> KeptImage? {
        let key = variant.key
        return state.withLock { state in
            guard let slot = state.slots[key] else { return nil }
            if serving { state.touch(slot) }
            return state.entries[slot]!.image
        }
    }

    public var keptBytes: Int { state.withLock { $0.keptBytes } }
    public var keptCount: Int { state.withLock { $0.slots.count } }

    /// Keeps `bytes` (a JPEG that `JPEGImage.check` passed, of `info`) as `variant`,
    /// durably, evicting the least recently served images as needed. Blocks on the disk:
    /// never call it on an event loop.
    public func keep(_ variant: ImageVariant, bytes: [UInt8], info: JPEGImage.Info) -> Keeping {
        guard bytes.count <= capacity else { return .notKept(reason: "larger than the whole copy (\(capacity) bytes)") }
        let key = variant.key
        let digest = Self.digest(of: bytes)
        let path = path(key: key, digest: digest)
        let image = KeptImage(path: path, bytes: bytes.count, etag: "\"" + digest + "\"", width: info.width, height: info.height)
        do {
            try writeDurably(bytes, to: path)
        } catch {
            return .notKept(reason: "\(error)")
        }
        return index.withLock { index in
            // Who goes to make room, and the order to write down, decided in memory: the
            // images evicted stop being served at once.
            let (evicted, served, lastServed) = state.withLock { state in
                var evicted: [Entry] = []
                if let existing = state.slots[key] { evicted.append(state.remove(slot: existing)) }
                while state.keptBytes + bytes.count > capacity, let oldest = state.recency.first {
                    evicted.append(state.remove(slot: oldest))
                }
                state.clock += 1
                return (evicted, state.takeServed(), state.clock)
            }
            do {
                try index.update(
                    adding: ImageIndex.Row(
                        key: key, digest: digest, bytes: bytes.count, width: info.width, height: info.height, lastServed: lastServed),
                    removing: evicted.filter { $0.key != key }.map(\.key), served: served)
            } catch {
                // Not in the index, so not kept: the file goes (the evicted stay on disk
                // and in the index, and come back at the next start).
                _ = unlink(path)
                publishCounts()
                return .notKept(reason: "\(error)")
            }
            state.withLock { state in _ = state.add(Entry(key: key, digest: digest, image: image), lastServed: lastServed) }
            for old in evicted where old.image.path != path { _ = unlink(old.image.path) }
            publishCounts()
            return .kept(image)
        }
    }

    /// Writes down when each image was last served (also done with every image kept).
    public func writeServedOrder() {
        index.withLock { index in
            let served = state.withLock { $0.takeServed() }
            guard !served.isEmpty else { return }
            // The order is a hint for eviction: losing it loses no image.
            try? index.update(adding: nil, removing: [], served: served)
        }
    }

    // MARK: Start

    /// Loads `rows` whose files are whole, drops the others, removes files no row
    /// names, and evicts down to `capacity`.
    private func tidy(_ rows: [ImageIndex.Row]) throws(ImageCopyError) {
        var missing: [String] = []
        var named: Set<String> = []
        state.withLock { state in
            for row in rows {
                guard let variant = ImageVariant(key: row.key) else {
                    missing.append(row.key)
                    continue
                }
                let path = path(key: variant.key, digest: row.digest)
                var status = stat()
                guard stat(path, &status) == 0, Int(status.st_size) == row.bytes else {
                    missing.append(row.key)
                    continue
                }
                named.insert(path)
                let image = KeptImage(path: path, bytes: row.bytes, etag: "\"" + row.digest + "\"", width: row.width, height: row.height)
                _ = state.add(Entry(key: row.key, digest: row.digest, image: image), lastServed: row.lastServed)
                state.clock = max(state.clock, row.lastServed)
            }
        }
        for folder in 0..<256 {
            let path = directory + "/" + Self.folderName(folder)
            for name in (try? Self.names(in: path)) ?? [] where !named.contains(path + "/" + name) {
                _ = unlink(path + "/" + name)
            }
        }
        let evicted = state.withLock { state in
            var evicted: [Entry] = []
            while state.keptBytes > capacity, let oldest = state.recency.first { evicted.append(state.remove(slot: oldest)) }
            return evicted
        }
        do {
            try index.withLock { index in
                try index.update(adding: nil, removing: missing + evicted.map(\.key), served: [])
            }
        } catch let error as SQLiteError {
            throw .index(error)
        } catch {
            throw .index(SQLiteError(code: 1, message: "\(error)"))
        }
        for entry in evicted { _ = unlink(entry.image.path) }
        publishCounts()
    }

    private func publishCounts() {
        let (bytes, images) = state.withLock { ($0.keptBytes, $0.slots.count) }
        counters.setKept(bytes: bytes, images: images)
    }

    // MARK: Files

    /// Where images are written before they are complete; emptied at every start.
    static let temporaryFolder = "tmp"

    /// Writes `bytes` under `tmp/`, flushes it, renames it to `path` and flushes
    /// `path`'s folder: after a crash, `path` is either missing or whole.
    private func writeDurably(_ bytes: [UInt8], to path: String) throws(SystemCallError) {
        let name = path[path.index(after: path.lastIndex(of: "/")!)...]
        let temporary = directory + "/" + Self.temporaryFolder + "/" + name + ".\(getpid()).\(UInt64.random(in: 0...UInt64.max))"
        let raw = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard raw >= 0 else { throw SystemCallError(name: "open \(temporary)", errno: errno) }
        let file = FileDescriptor(raw)
        do throws(SystemCallError) {
            var written = 0
            while written < bytes.count {
                let count = bytes.withUnsafeBytes { write(file.rawValue, $0.baseAddress! + written, bytes.count - written) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw SystemCallError(name: "write \(temporary)", errno: errno)
                }
                written += count
            }
            guard fsync(file.rawValue) == 0 else { throw SystemCallError(name: "fsync \(temporary)", errno: errno) }
            file.close()
            guard rename(temporary, path) == 0 else { throw SystemCallError(name: "rename \(temporary)", errno: errno) }
            try Self.flushFolder(of: path)
        } catch {
            _ = unlink(temporary)
            throw error
        }
    }

    /// fsync(2) of the folder holding `path`, so a rename into it is durable.
    private static func flushFolder(of path: String) throws(SystemCallError) {
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        let raw = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard raw >= 0 else { throw SystemCallError(name: "open \(folder)", errno: errno) }
        let file = FileDescriptor(raw)
        guard fsync(file.rawValue) == 0 else { throw SystemCallError(name: "fsync \(folder)", errno: errno) }
    }

    static func makeFolder(_ path: String) throws(SystemCallError) {
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else { throw SystemCallError(name: "mkdir \(path)", errno: errno) }
    }

    /// The names in a folder, `.` and `..` left out.
    static func names(in folder: String) throws(SystemCallError) -> [String] {
        guard let stream = opendir(folder) else { throw SystemCallError(name: "opendir \(folder)", errno: errno) }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.baseAddress!.assumingMemoryBound(to: CChar.self)) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    static func removeContents(of folder: String) throws(SystemCallError) {
        for name in try names(in: folder) { _ = unlink(folder + "/" + name) }
    }

    /// The strong entity tag of an image's bytes, kept or not: its digest, quoted.
    public static func etag(of bytes: [UInt8]) -> String {
        "\"" + digest(of: bytes) + "\""
    }

    /// The first 16 bytes of the content's SHA-256, in hex: its file's name and its tag.
    private static func digest(of bytes: [UInt8]) -> String {
        Hex.string(SHA256.hash(data: bytes).prefix(16))
    }

    /// The name of one of the 256 folders: a byte in two lowercase hex digits.
    private static func folderName(_ byte: Int) -> String {
        Hex.string([UInt8(byte)])
    }

    /// The file of `key` with content `digest`: in the folder of the key's digest's first
    /// byte, named by that digest's first 8 bytes and the content's.
    private func path(key: String, digest: String) -> String {
        let name = Hex.string(SHA256.hash(data: Array(key.utf8)).prefix(8)) + "-" + digest + ".jpg"
        return directory + "/" + String(name.prefix(2)) + "/" + name
    }
}
