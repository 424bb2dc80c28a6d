/// A response body that is not held in memory: bytes made on demand and regions of files,
/// in order, sent as the client takes them (`sendfile(2)` for the files). A photograph
/// kept on disk is one file region; an archive of many is its members' headers between
/// their files' regions, the headers made only when the connection reaches them.
///
/// The encoder answers `Range` over it as over `HTTPResponse.body` (`acceptsRanges`),
/// never gzips it, and sends nothing of it for `HEAD` and `304`.
///
/// A file region is opened by path only when the connection reaches it, so a response
/// of a thousand files holds one descriptor at a time. A file that is missing or shorter
/// than its region by then closes the connection mid-body (the length was already sent):
/// the client sees a cut download, never bytes of another file. So each path must name
/// bytes that never change while it exists (the image copy names its files by their
/// content).
public protocol StreamedBody: Sendable {
    /// All its bytes.
    var length: Int { get }
    /// At least one when `length` is not zero.
    var segmentCount: Int { get }
    /// Where segment `index` starts, rising with `index`; segment 0 starts at 0, and each
    /// ends where the next starts (the last at `length`).
    func segmentStart(_ index: Int) -> Int
    func segment(_ index: Int) -> StreamedSegment
}

/// One piece of a `StreamedBody`.
public enum StreamedSegment: Sendable, Equatable {
    /// These bytes, exactly as long as the segment.
    case bytes([UInt8])
    /// The segment's bytes are the file's from `offset` on.
    case file(path: String, offset: Int)
}

extension StreamedBody {
    /// The segment holding byte `position` (< `length`): a binary search of the starts.
    func segmentIndex(containing position: Int) -> Int {
        var low = 0, high = segmentCount - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if segmentStart(middle) <= position { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// Where segment `index` ends.
    func segmentEnd(_ index: Int) -> Int {
        index + 1 < segmentCount ? segmentStart(index + 1) : length
    }
}
