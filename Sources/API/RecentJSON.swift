import Accounts

/// The JSON shapes of recently viewed photos: the photo's PlacedPhoto plus `viewedAt`.
enum RecentJSON {
    /// PlacedPhoto + `viewedAt`, from the photo's encoded PlacedPhoto.
    static func recent(_ recent: Recent, placed: [UInt8]) -> [UInt8] {
        JSONWriter.object(placed, appending: "viewedAt", AccountJSON.timestamp(recent.viewedAt))
    }

    /// `{"recents": [...]}` of already encoded recents.
    static func list(_ recents: [[UInt8]]) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 512 * recents.count + 16)
        writer.beginObject()
        writer.key("recents")
        writer.beginArray()
        for recent in recents {
            writer.raw(recent)
        }
        writer.endArray()
        writer.endObject()
        return writer.bytes
    }
}
