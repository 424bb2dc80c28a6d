import Crypto
import Basics

/// One `GET /images/pack` archive, laid out but never built: a POSIX ustar archive of
/// `index.json` first, then one `<photoID>.jpg` per kept photo in photoID order, each the
/// kept file's bytes. What is sent is a list of segments, made bytes (each member's
/// header, after the previous file's padding) between the kept files' regions, so a
/// server sends it with `sendfile(2)` and holds one header at a time.
///
/// The same members give the same bytes: the headers vary with names and sizes only
/// (`USTARHeader`), and the tag is a digest of the index and every member's tag.
///
/// `Sendable`: immutable.
public final class ImagePack: Sendable {
    public struct Member: Sendable, Equatable {
        public let photoID: String
        public let image: KeptImage

        public init(photoID: String, image: KeptImage) {
            self.photoID = photoID
            self.image = image
        }

        /// Its name in the archive.
        public var fileName: String { photoID + ".jpg" }
    }

    /// What one segment is.
    public enum Segment: Sendable, Equatable {
        case bytes([UInt8])
        /// The whole of a kept file.
        case file(path: String)
    }

    public let members: [Member]
    /// The archive's first member, `index.json`.
    public let index: [UInt8]
    /// A strong entity tag of the archive's bytes.
    public let etag: String
    public let length: Int
    /// Where each segment starts: the index block, then each member's header and file,
    /// then the end of the archive.
    private let starts: [Int]

    /// - Parameters:
    ///   - members: in photoID order, names of at most 100 bytes.
    ///   - index: the bytes of `index.json`, which lists them.
    public init(members: [Member], index: [UInt8]) {
        self.members = members
        self.index = index
        var starts = [0]
        starts.reserveCapacity(2 * members.count + 2)
        var offset = USTARHeader.blockSize + index.count + USTARHeader.padding(after: index.count)
        var previousPadding = 0
        for member in members {
            starts.append(offset)
            offset += previousPadding + USTARHeader.blockSize
            starts.append(offset)
            offset += member.image.bytes
            previousPadding = USTARHeader.padding(after: member.image.bytes)
        }
        starts.append(offset)
        offset += previousPadding + 2 * USTARHeader.blockSize
        offset += (USTARHeader.recordSize - offset % USTARHeader.recordSize) % USTARHeader.recordSize
        self.starts = starts
        length = offset
        var digest = SHA256()
        digest.update(data: index)
        for member in members { digest.update(data: Array(member.image.etag.utf8)) }
        etag = "\"" + Hex.string(digest.finalize().prefix(16)) + "\""
    }

    public var segmentCount: Int { starts.count }

    public func segmentStart(_ index: Int) -> Int { starts[index] }

    public func segment(_ position: Int) -> Segment {
        if position == 0 {
            return .bytes(
                USTARHeader.regularFile(name: "index.json", size: index.count) + index
                    + [UInt8](repeating: 0, count: USTARHeader.padding(after: index.count)))
        }
        let end = position + 1 < starts.count ? starts[position + 1] : length
        let size = end - starts[position]
        let member = (position - 1) / 2
        if position == starts.count - 1 {
            return .bytes([UInt8](repeating: 0, count: size))  // The last file's padding, two zero blocks, the record's rest.
        }
        if position % 2 == 0 { return .file(path: members[member].image.path) }
        // The previous file's padding, then this member's header.
        return .bytes(
            [UInt8](repeating: 0, count: size - USTARHeader.blockSize)
                + USTARHeader.regularFile(name: members[member].fileName, size: members[member].image.bytes))
    }
}
