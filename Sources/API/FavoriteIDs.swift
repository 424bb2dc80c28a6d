import Accounts

/// The `ids` of `GET /favorites?ids=`: photo IDs separated by `,`, each taken verbatim
/// (after the query's percent-decoding), repeats counted once.
enum FavoriteIDs {
    /// The distinct IDs in the order first given.
    /// - Throws: a 400 naming `ids` for an empty item, or more than
    ///   `Accounts.favoriteLookupCapacity` distinct IDs.
    static func parse(_ text: String) throws -> [String] {
        // By bytes: IDs compare by code point, and a "," followed by a combining mark is
        // still a separator (as a Character it would not be one). The repeats are found
        // on the query's own bytes, with no copy per item.
        var text = text
        return try text.withUTF8 { bytes in
            var seen = Set<IDBytes>(minimumCapacity: Accounts.favoriteLookupCapacity + 1)
            var ids: [String] = []
            var start = 0
            while start <= bytes.count {
                let end = bytes[start...].firstIndex(of: UInt8(ascii: ",")) ?? bytes.count
                defer { start = end + 1 }
                guard end > start else {
                    throw QueryParameters.invalid("ids", "must be photo IDs separated by ',', with no empty item")
                }
                let item = UnsafeBufferPointer(rebasing: bytes[start..<end])
                guard seen.insert(IDBytes(bytes: item)).inserted else { continue }
                guard ids.count < Accounts.favoriteLookupCapacity else {
                    throw QueryParameters.invalid("ids", "must hold at most \(Accounts.favoriteLookupCapacity) distinct photo IDs")
                }
                ids.append(String(decoding: item, as: UTF8.self))
            }
            return ids
        }
    }

    /// An ID's bytes inside the query being parsed (never kept past `parse`), hashed
    /// and compared as bytes.
    private struct IDBytes: Hashable {
        let bytes: UnsafeBufferPointer<UInt8>

        func hash(into hasher: inout Hasher) {
            hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        }

        static func == (a: IDBytes, b: IDBytes) -> Bool {
            a.bytes.elementsEqual(b.bytes)
        }
    }
}
