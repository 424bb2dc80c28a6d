import Accounts
import HTTPServer

/// The JSON shapes of favorites: the photo's PlacedPhoto plus `savedAt`, or, for a
/// photo no longer in the catalog, `{"photoID", "missing": true, "savedAt"}` (the
/// favorite is kept in case the photo comes back).
enum FavoriteJSON {
    static func favorite(_ favorite: Favorite, photos: any PlacedPhotoProvider) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(600)
        append(favorite, photos: photos, to: &body)
        return body
    }

    /// `{"favorites": [...], "nextCursor": string | null}`.
    static func page(_ page: FavoritesPage, photos: any PlacedPhotoProvider) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(600 * page.favorites.count + 64)
        body.append(contentsOf: #"{"favorites":["#.utf8)
        for (index, favorite) in page.favorites.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            append(favorite, photos: photos, to: &body)
        }
        body.append(contentsOf: #"],"nextCursor":"#.utf8)
        if let nextCursor = page.nextCursor { JSONString.append(nextCursor, to: &body) } else { body.append(contentsOf: "null".utf8) }
        body.append(UInt8(ascii: "}"))
        return body
    }

    /// One favorite, written in place after its PlacedPhoto (or as missing).
    private static func append(_ favorite: Favorite, photos: any PlacedPhotoProvider, to body: inout [UInt8]) {
        guard photos.appendOpenPlacedPhoto(photoID: favorite.photoID, to: &body) else {
            var writer = JSONWriter()
            writer.beginObject()
            writer.field("photoID", favorite.photoID)
            writer.field("missing", true)
            writer.field("savedAt", AccountJSON.timestamp(favorite.savedAt))
            writer.endObject()
            body.append(contentsOf: writer.bytes)
            return
        }
        body.append(contentsOf: #","savedAt":""#.utf8)
        AccountJSON.appendTimestamp(favorite.savedAt, to: &body)
        body.append(contentsOf: #""}"#.utf8)
    }
}
