import Accounts
import HTTPServer

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

    /// `{"favorites": [...], "nextCursor": string | null}`, each favorite written in place
    /// after its PlacedPhoto.
    static func page(_ page: FavoritesPage, photos: any PlacedPhotoProvider) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(600 * page.favorites.count + 64)
        body.append(contentsOf: #"{"favorites":["#.utf8)
        for (index, favorite) in page.favorites.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            guard photos.appendOpenPlacedPhoto(photoID: favorite.photoID, to: &body) else {
                body.append(contentsOf: self.favorite(favorite, photos: photos))
                continue
            }
            body.append(contentsOf: #","savedAt":""#.utf8)
            body.append(contentsOf: AccountJSON.timestamp(favorite.savedAt).utf8)
            body.append(contentsOf: #""}"#.utf8)
        }
        body.append(contentsOf: #"],"nextCursor":"#.utf8)
        if let nextCursor = page.nextCursor { JSONString.append(nextCursor, to: &body) } else { body.append(contentsOf: "null".utf8) }
        body.append(UInt8(ascii: "}"))
        return body
    }
}
