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
        var seen = Set<ArraySlice<UInt8>>()
        var ids: [String] = []
        let bytes = Array(text.utf8)
        for item in bytes.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            guard !item.isEmpty else {
                throw CatalogParameters.invalid("ids", "must be photo IDs separated by ',', with no empty item")
            }
            guard seen.insert(item).inserted else { continue }
            guard ids.count < Accounts.favoriteLookupCapacity else {
                throw CatalogParameters.invalid("ids", "must hold at most \(Accounts.favoriteLookupCapacity) distinct photo IDs")
            }
            ids.append(String(decoding: item, as: UTF8.self))
        }
        return ids
    }
}
