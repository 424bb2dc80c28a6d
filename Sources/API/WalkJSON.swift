import Basics
import Foundation
import Walks

/// The JSON shapes of walks: Walk, Entry (PlacedPhoto + `addedAt`, `point`,
/// `distanceMeters`) and the bodies built of them. An entry whose
/// photo has left the catalog is `{"photoID", "missing": true, "addedAt", "point",
/// "distanceMeters"}`, as favorites do.
struct WalkJSON: Sendable {
    let photos: any PlacedPhotoProvider

    /// These shapes, their entries all from one generation of the catalog.
    func pinned() -> WalkJSON {
        WalkJSON(photos: photos.pinned())
    }

    /// `{"walkID", "startedAt", "updatedAt", "pointCount", "distanceMeters", "photoCount"}`
    func walk(_ walk: Walk) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 200)
        write(walk, to: &writer)
        return writer.bytes
    }

    /// `{"accepted", "entry": Entry | null, "walk": Walk}`
    func pointOutcome(_ outcome: WalkPointOutcome) -> [UInt8] {
        let (accepted, entry, walk): (Bool, WalkEntry?, Walk) =
            switch outcome {
            case .accepted(let walk, let entry): (true, entry, walk)
            case .rejected(let walk): (false, nil, walk)
            }
        var writer = JSONWriter(reservingCapacity: 1024)
        writer.beginObject()
        writeResult(accepted: accepted, entry: entry, to: &writer)
        writer.key("walk")
        write(walk, to: &writer)
        writer.endObject()
        return writer.bytes
    }

    /// `{"walk": Walk, "entries": [Entry], "nextCursor": string | null}`
    func page(_ page: WalkPage) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 256 + 700 * page.entries.count)
        writer.beginObject()
        writer.key("walk")
        write(page.walk, to: &writer)
        writer.field("entries", array: page.entries) { $0.raw(entry($1)) }
        writer.field("nextCursor", page.nextCursor)
        writer.endObject()
        return writer.bytes
    }

    /// `{"results": [{"accepted", "entry": Entry | null}], "walk": Walk}`
    func batchOutcome(_ outcome: WalkBatchOutcome) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 256 + 40 * outcome.results.count)
        writer.beginObject()
        writer.field("results", array: outcome.results) { writer, result in
            writer.beginObject()
            writeResult(accepted: result.accepted, entry: result.entry, to: &writer)
            writer.endObject()
        }
        writer.key("walk")
        write(outcome.walk, to: &writer)
        writer.endObject()
        return writer.bytes
    }

    /// `{"walks": [Walk], "nextCursor": string | null}`
    func page(_ page: WalksPage) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 64 + 200 * page.walks.count)
        writer.beginObject()
        writer.field("walks", array: page.walks) { write($1, to: &$0) }
        writer.field("nextCursor", page.nextCursor)
        writer.endObject()
        return writer.bytes
    }

    /// `{"walkID", "points": [{"latitude", "longitude", "recordedAt"}]}`
    func route(walkID: String, points: [RoutePoint]) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 64 + 80 * points.count)
        writer.beginObject()
        writer.field("walkID", walkID)
        writer.field("points", array: points) { writer, point in
            writer.beginObject()
            writer.field("latitude", point.point.latitude)
            writer.field("longitude", point.point.longitude)
            writer.field("recordedAt", Self.timestamp(point.recordedAt))
            writer.endObject()
        }
        writer.endObject()
        return writer.bytes
    }

    func entry(_ entry: WalkEntry) -> [UInt8] {
        var members = JSONWriter(reservingCapacity: 160)
        members.beginObject()
        guard let placed = photos.placedPhotoJSON(photoID: entry.photoID) else {
            members.field("photoID", entry.photoID)
            members.field("missing", true)
            writeEntryMembers(entry, to: &members)
            members.endObject()
            return members.bytes
        }
        writeEntryMembers(entry, to: &members)
        members.endObject()
        return JSONWriter.object(placed, appendingMembersOf: members.bytes)
    }

    /// A point's fate: `"accepted"` and the `"entry"` it added (null for none).
    private func writeResult(accepted: Bool, entry: WalkEntry?, to writer: inout JSONWriter) {
        writer.field("accepted", accepted)
        writer.field("entry", raw: entry.map(self.entry))
    }

    private func writeEntryMembers(_ entry: WalkEntry, to writer: inout JSONWriter) {
        writer.field("addedAt", Self.timestamp(entry.addedAt))
        writer.key("point")
        writer.beginObject()
        writer.field("latitude", entry.point.latitude)
        writer.field("longitude", entry.point.longitude)
        writer.endObject()
        writer.key("distanceMeters")
        writer.raw(Self.centimetres(entry.distanceMeters))
    }

    private func write(_ walk: Walk, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("walkID", walk.walkID)
        writer.field("startedAt", Self.timestamp(walk.startedAt))
        writer.field("updatedAt", Self.timestamp(walk.updatedAt))
        writer.field("pointCount", walk.pointCount)
        writer.key("distanceMeters")
        writer.raw(Self.centimetres(walk.distanceMeters))
        writer.field("photoCount", walk.photoCount)
        writer.endObject()
    }

    /// RFC 3339 in UTC with milliseconds, as walks keep their times (a batch's points
    /// keep the times the phone recorded).
    private static func timestamp(_ date: Date) -> String {
        UTCDateTime.iso8601(milliseconds: Walks.milliseconds(date))
    }

    /// A distance rounded to the centimetre, as the catalog writes distances.
    private static func centimetres(_ meters: Double) -> [UInt8] {
        var bytes: [UInt8] = []
        CatalogJSONNumber.appendCentimetres(meters, to: &bytes)
        return bytes
    }
}
