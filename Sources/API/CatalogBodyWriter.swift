/// Bytes written into one allocation of a size fixed up front: the bodies of `/nearby`
/// and `/region`, whose sizes are bounded by their precomputed fragments, and entity
/// tags. Each append is one bounds check and a copy: no uniqueness check, no growth
/// and no reference counting, which `[UInt8].append` pays on every call.
///
/// Not copyable: it points into storage that only the initializer running it owns
/// (`body(capacity:_:)`'s, or a String's), and only while that runs.
struct CatalogBodyWriter: CatalogByteSink, ~Copyable {
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    /// The bytes written so far.
    private(set) var count = 0

    /// A writer over `storage`, which must outlive it: the closure of an
    /// `unsafeUninitializedCapacity` initializer, as in `body(capacity:_:)`.
    /// - Precondition: `storage` is not empty.
    init(storage: UnsafeMutableBufferPointer<UInt8>) {
        base = storage.baseAddress!
        capacity = storage.count
    }

    /// A body of at most `capacity` bytes, written by `write`.
    /// - Precondition: `write` writes at most `capacity` bytes (checked on every append:
    ///   a wrong bound stops the process rather than write past the storage).
    static func body(capacity: Int, _ write: (inout CatalogBodyWriter) -> Void) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: max(capacity, 1)) { storage, initialized in
            var writer = CatalogBodyWriter(storage: storage)
            write(&writer)
            initialized = writer.count
        }
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        precondition(count < capacity, "a catalog body outgrew its bound")
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(bytes: UnsafeBufferPointer<UInt8>) {
        precondition(bytes.count <= capacity - count, "a catalog body outgrew its bound")
        guard let start = bytes.baseAddress else { return }
        (base + count).initialize(from: start, count: bytes.count)
        count += bytes.count
    }

    @inline(__always)
    mutating func append(count: Int, _ fill: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        precondition(count <= capacity - self.count, "a catalog body outgrew its bound")
        fill(UnsafeMutableBufferPointer(start: base + self.count, count: count))
        self.count += count
    }
}
