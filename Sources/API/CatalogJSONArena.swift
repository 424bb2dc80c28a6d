import CPrefetch

/// Many small precomputed JSON fragments stored back to back in one byte array and
/// addressed by index: one allocation for all of them instead of one array each,
/// and appending one to a body is a single `memcpy` with no reference counting.
///
/// Neighbouring fragments may be stored with a comma between them (`joined`), so a
/// run of them — a location's photos — is already a JSON array's contents and is
/// appended as one slice.
///
/// `Sendable`: immutable after `init`.
struct CatalogJSONArena: Sendable {
    private let bytes: [UInt8]
    /// Where each fragment starts and ends in `bytes`, side by side: one cache line
    /// holds the bounds of several neighbouring fragments.
    private let bounds: [Bounds]

    private struct Bounds {
        var start: Int32
        var end: Int32
    }

    /// Encodes fragments `0..<count`, each into a fresh writer handed to `encode`.
    /// - Parameters:
    ///   - estimatedSize: a typical fragment's size, to reserve the storage once.
    ///   - joined: whether fragment `i` (never 0) is stored after a comma that follows fragment `i - 1`.
    init(
        count: Int, estimatedSize: Int, joined: (Int) -> Bool = { _ in false }, encode: (Int, inout JSONWriter) -> Void
    ) {
        self.init(count: count, estimatedSize: estimatedSize, joined: joined) { index, bytes in
            var writer = JSONWriter(reservingCapacity: estimatedSize)
            encode(index, &writer)
            bytes.append(contentsOf: writer.bytes)
        }
    }

    /// Encodes fragments `0..<count`, each appended by `append` straight to the arena's
    /// bytes: for fragments written byte by byte, with no writer and no copy.
    /// - Parameters:
    ///   - estimatedSize: a typical fragment's size, to reserve the storage once.
    ///   - joined: whether fragment `i` (never 0) is stored after a comma that follows fragment `i - 1`.
    init(count: Int, estimatedSize: Int, joined: (Int) -> Bool = { _ in false }, append: (Int, inout [UInt8]) -> Void) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count * estimatedSize)
        var bounds: [Bounds] = []
        bounds.reserveCapacity(count)
        for index in 0..<count {
            if index > 0, joined(index) { bytes.append(UInt8(ascii: ",")) }
            let start = Int32(bytes.count)
            append(index, &bytes)
            precondition(bytes.count <= Int(Int32.max), "a JSON arena holds at most 2 GiB")
            bounds.append(Bounds(start: start, end: Int32(bytes.count)))
        }
        self.bytes = bytes
        self.bounds = bounds
    }

    /// Fragment `index` as its own array.
    func fragment(_ index: Int) -> [UInt8] {
        Array(bytes[Int(bounds[index].start)..<Int(bounds[index].end)])
    }

    /// The length in bytes of fragment `index`.
    func size(_ index: Int) -> Int {
        Int(bounds[index].end - bounds[index].start)
    }

    /// The length in bytes of the fragments `run`, with the commas between them.
    /// - Precondition: `run` is not empty.
    func size(run: Range<Int>) -> Int {
        Int(bounds[run.upperBound - 1].end - bounds[run.lowerBound].start)
    }

    /// Appends fragment `index` to `body`.
    func append(_ index: Int, to body: inout some CatalogByteSink & ~Copyable) {
        append(Int(bounds[index].start)..<Int(bounds[index].end), to: &body)
    }

    /// Appends the fragments `run`, comma-separated, in one copy.
    /// - Precondition: each fragment after the first of `run` was stored `joined`.
    func append(run: Range<Int>, to body: inout some CatalogByteSink & ~Copyable) {
        guard !run.isEmpty else { return }
        append(Int(bounds[run.lowerBound].start)..<Int(bounds[run.upperBound - 1].end), to: &body)
    }

    /// Appends the bytes `part` (offsets relative to the fragment's start) of fragment `index`.
    func append(_ index: Int, part: Range<Int>, to body: inout some CatalogByteSink & ~Copyable) {
        let start = Int(bounds[index].start)
        append((start + part.lowerBound)..<(start + part.upperBound), to: &body)
    }

    /// Starts loading the fragments `run` into the cache, so that copying several
    /// scattered runs waits for memory once, not once per cache line of each.
    /// - Precondition: `run` is not empty.
    func prefetch(run: Range<Int>) {
        let start = Int(bounds[run.lowerBound].start), end = Int(bounds[run.upperBound - 1].end)
        bytes.withUnsafeBytes { all in
            for offset in stride(from: start, to: end, by: 64) { prefetch_for_reading(all.baseAddress! + offset) }
        }
    }

    /// Starts loading where fragment `index` lies, and so the fragments after it that
    /// share its cache line.
    func prefetchBounds(of index: Int) {
        bounds.withUnsafeBufferPointer { prefetch_for_reading($0.baseAddress! + index) }
    }

    private func append(_ range: Range<Int>, to body: inout some CatalogByteSink & ~Copyable) {
        bytes.withUnsafeBufferPointer { all in
            body.append(bytes: UnsafeBufferPointer(rebasing: all[range]))
        }
    }
}
