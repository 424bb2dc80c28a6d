import Accounts

/// The JSON shapes of favorites: the photo's PlacedPhoto plus `savedAt`, or, for a
/// photo no longer in the catalog, `{"photoID", "missing": true, "savedAt"}` (the
/// favorite is kept in case the photo comes back).
enum FavoriteJSON {
    static func favorite(_ favorite: Favorite, photos: any PlacedPhotoProvider) -> [UInt8] {
        let savedAt = AccountJSON.timestamp(favorite.savedAt)
        guard let placed = photos.placedPhotoJSON(photoID: favorite.photoID) else {
            var writer = JSONWriter()
            writer.beginObject()
            writer.field("photoID", favorite.photoID)
            writer.field("missing", true)
            writer.field("savedAt", savedAt)
            writer.endObject()
            return writer.bytes
        }
        return JSONWriter.object(placed, appending: "savedAt", savedAt)
    }

    /// `{"favorites": [...], "nextCursor": string | null}`
    static func page(_ page: FavoritesPage, photos: any PlacedPhotoProvider) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 600 * page.favorites.count + 64)
        writer.beginObject()
        writer.key("favorites")
        writer.beginArray()
        for favorite in page.favorites {
            guard var placed = photos.placedPhotoJSON(photoID: favorite.photoID) else {
                writer.raw(self.favorite(favorite, photos: photos))
                continue
            }
            // The PlacedPhoto reopened for `savedAt`, in the room it was made with.
            placed.removeLast()
            placed.append(contentsOf: #","savedAt":""#.utf8)
            placed.append(contentsOf: AccountJSON.timestamp(favorite.savedAt).utf8)
            placed.append(contentsOf: #""}"#.utf8)
            writer.raw(placed)
        }
        writer.endArray()
        writer.field("nextCursor", page.nextCursor)
        writer.endObject()
        return writer.bytes
    }
}
