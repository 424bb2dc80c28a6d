import API
import Synchronization

/// A catalog of photos `p0` … `p<count-1>`, all at one place, whose photos can be withdrawn, as a newer
/// catalog might.
final class FakePhotos: PlacedPhotoProvider {
    private let available: Mutex<Set<String>>

    init(count: Int = 400) {
        available = Mutex(Set((0..<count).map { "p\($0)" }))
    }

    func placedPhotoJSON(photoID: String) -> [UInt8]? {
        guard available.withLock({ $0.contains(photoID) }) else { return nil }
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("photoID", photoID)
        writer.field("thumbnailURL", "https://example.org/thumb/\(photoID).jpg")
        writer.field("photoURL", "https://example.org/\(photoID).jpg")
        writer.field("width", 600)
        writer.field("height", 400)
        writer.field("title", "Title of \(photoID)")
        writer.field("date", nil)
        writer.field("locationID", "40.700000,-74.000000")
        writer.field("latitude", 40.7)
        writer.field("longitude", -74.0)
        writer.field("borough", "Manhattan")
        writer.field("intersection", "Broadway & Wall Street")
        writer.endObject()
        return writer.bytes
    }

    func withdraw(_ photoID: String) {
        _ = available.withLock { $0.remove(photoID) }
    }
}
