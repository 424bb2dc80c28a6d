import Accounts

/// The JSON shapes of favorites: the photo's PhotoSummary plus `savedAt`, or, for a
/// photo no longer in the catalog, `{"photoID", "missing": true, "savedAt"}` (the
/// favorite is kept in case the photo comes back).
enum FavoriteJSON {
    static func favorite(_ favorite: Favorite, photos: any PhotoSummaryProvider) -> [UInt8] {
        let savedAt = AccountJSON.timestamp(favorite.savedAt)
        guard let summary = photos.photoSummaryJSON(photoID: favorite.photoID) else {
            var writer = JSONWriter()
            writer.beginObject()
            writer.field("photoID", favorite.photoID)
            writer.field("missing", true)
            writer.field("savedAt", savedAt)
            writer.endObject()
            return writer.bytes
        }
        return appending(savedAt: savedAt, to: summary)
    }

    /// `{"favorites": [...], "nextCursor": string | null}`
    static func page(_ page: FavoritesPage, photos: any PhotoSummaryProvider) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 512 * page.favorites.count + 64)
        writer.beginObject()
        writer.key("favorites")
        writer.beginArray()
        for favorite in page.favorites {
            writer.raw(self.favorite(favorite, photos: photos))
        }
        writer.endArray()
        writer.field("nextCursor", page.nextCursor)
        writer.endObject()
        return writer.bytes
    }

    /// Adds `"savedAt"` as the last member of an encoded JSON object.
    private static func appending(savedAt: String, to object: [UInt8]) -> [UInt8] {
        var members = object
        while let last = members.last, last != UInt8(ascii: "}") { members.removeLast() }
        precondition(members.first == UInt8(ascii: "{") && !members.isEmpty, "a PhotoSummary is a JSON object")
        members.removeLast()
        let isEmpty = members.dropFirst().allSatisfy { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("savedAt", savedAt)
        writer.endObject()
        // `{"savedAt":"…"}` without its opening brace, after a comma unless the object was empty.
        return members + (isEmpty ? [] : [UInt8(ascii: ",")]) + writer.bytes.dropFirst()
    }
}
