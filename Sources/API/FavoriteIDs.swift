import Accounts

/// The `ids` of `GET /favorites?ids=`: photo IDs separated by `,`, each taken verbatim
/// (after the query's percent-decoding), repeats counted once.
enum FavoriteIDs {
    /// The distinct IDs in the order first given.
    /// - Throws: a 400 naming `ids` for an empty item, or more than
    ///   `Accounts.favoriteLookupCapacity` distinct IDs.
    static func parse(_ text: String) throws -> [String] {
        // By bytes: IDs compare by code point, and a "," followed by a combining mark is
        // still a separator (as a Character it would not be one).
        let bytes = Array(text.utf8)
        let items = bytes.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        var seen = Set<IDBytes>(minimumCapacity: min(items.count, Accounts.favoriteLookupCapacity + 1))
        var ids: [String] = []
        for item in items {
            guard !item.isEmpty else {
                throw CatalogParameters.invalid("ids", "must be photo IDs separated by ',', with no empty item")
            }
            guard seen.insert(IDBytes(bytes: item)).inserted else { continue }
            guard ids.count < Accounts.favoriteLookupCapacity else {
                throw CatalogParameters.invalid("ids", "must hold at most \(Accounts.favoriteLookupCapacity) distinct photo IDs")
            }
            ids.append(String(decoding: item, as: UTF8.self))
        }
        return ids
    }

    /// An ID's bytes, hashed in one call (an `ArraySlice` is hashed byte by byte).
    private struct IDBytes: Hashable {
        let bytes: ArraySlice<UInt8>

        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }

        static func == (a: IDBytes, b: IDBytes) -> Bool {
            a.bytes.elementsEqual(b.bytes)
        }
    }
}
