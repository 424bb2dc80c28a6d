/// A photo ID as a set or dictionary key: hashed and compared by its UTF-8 bytes, that
/// is by code point, as SQLite and the API compare IDs; `String` itself compares by
/// canonical equivalence, which would merge IDs that differ in their code points.
public struct PhotoIDKey: Hashable, Sendable {
    public let photoID: String

    public init(_ photoID: String) {
        self.photoID = photoID
    }

    public func hash(into hasher: inout Hasher) {
        var photoID = photoID
        photoID.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    public static func == (a: PhotoIDKey, b: PhotoIDKey) -> Bool {
        var (first, second) = (a.photoID, b.photoID)
        return first.withUTF8 { first in second.withUTF8 { first.elementsEqual($0) } }
    }
}
