import Accounts

/// The `ids` of `GET /favorites?ids=`: photo IDs separated by `,`, each taken verbatim
/// (after the query's percent-decoding), repeats counted once.
enum FavoriteIDs {
    /// The distinct IDs.
    /// - Throws: a 400 naming `ids` for an empty item, or more than `capacity` distinct
    ///   IDs (`GET /images/pack` takes more than `GET /favorites`).
    static func parse(_ text: String, capacity: Int = Favorites.lookupCapacity) throws -> Set<PhotoIDKey> {
        // By bytes: a "," followed by a combining mark is still a separator (as a
        // Character it would not be one).
        var text = text
        return try text.withUTF8 { bytes in
            var ids = Set<PhotoIDKey>(minimumCapacity: capacity + 1)
            var start = 0
            while start <= bytes.count {
                let end = bytes[start...].firstIndex(of: UInt8(ascii: ",")) ?? bytes.count
                defer { start = end + 1 }
                guard end > start else {
                    throw QueryParameters.invalid("ids", "must be photo IDs separated by ',', with no empty item")
                }
                ids.insert(PhotoIDKey(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)))
                guard ids.count <= capacity else {
                    throw QueryParameters.invalid("ids", "must hold at most \(capacity) distinct photo IDs")
                }
            }
            return ids
        }
    }
}
