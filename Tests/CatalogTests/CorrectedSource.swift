import Catalog
import Foundation
import Gzip

/// The brute-force twin of a catalog generation: the source file's records with the
/// corrections applied to the records themselves, as the contract words them, written
/// out as a new source file, to be imported from scratch. Independent of
/// `PhotoCorrections` and `PhotoCatalog(_:corrections:)`: plain dictionaries from
/// `JSONSerialization`.
enum CorrectedSource {
    /// A source directory (the locations file and the real boroughs) holding `lines` as
    /// `corrections` (in `sequence` order) would have them say:
    /// - a location correction to a point of another `locationID` moves the photo's record
    ///   to the line of that ID, or to a new line at the point as its ID spells it, and
    ///   drops its geocode (no label of its own); one to its own line's ID keeps it there,
    ///   geocode and all; a line left without photos is left out;
    /// - a date correction makes `date` the year and `years` only it;
    /// - a rotation of 90 or 270 degrees swaps `width` and `height`;
    /// - the last correction of a photo and kind wins; a correction naming no photo, or
    ///   holding a point off the globe, a year out of -9999...9999 or a turn that is not
    ///   0, 90, 180 or 270, changes nothing;
    /// - every line lists its photos in their order in the original file; new lines come
    ///   after the original ones, by `locationID`.
    static func directory(lines: [String], corrections: [CatalogCorrection]) throws -> String {
        var records = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        var photos: [[String: Any]] = []
        var lineOfPhoto: [Int] = []
        for (line, record) in records.enumerated() {
            for photo in record["photos"] as! [[String: Any]] {
                photos.append(photo)
                lineOfPhoto.append(line)
            }
        }
        let photoByID = Dictionary(uniqueKeysWithValues: photos.indices.map { (photos[$0]["id"] as! String, $0) })
        let lineIDs = records.map { identifier($0["latitude"] as! NSNumber, $0["longitude"] as! NSNumber) }
        let lineByID = Dictionary(lineIDs.indices.map { (lineIDs[$0], $0) }, uniquingKeysWith: { first, _ in first })

        var place: [Int: String] = [:]
        var year: [Int: Int] = [:]
        var degrees: [Int: Int] = [:]
        for correction in corrections {
            guard let photo = photoByID[correction.photoID] else { continue }
            switch correction.change {
            case .location(let latitude, let longitude):
                guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else { continue }
                place[photo] = String(format: "%.6f,%.6f", latitude, longitude)
            case .date(let value):
                guard abs(value) <= 9999 else { continue }
                year[photo] = value
            case .rotation(let value):
                guard [0, 90, 180, 270].contains(value) else { continue }
                degrees[photo] = value
            }
        }

        var members = [[Int]](repeating: [], count: records.count)
        var newLines: [String: [Int]] = [:]
        for photo in photos.indices {
            var record = photos[photo]
            if let value = year[photo] {
                record["date"] = String(value)
                record["years"] = [String(value)]
            }
            if let value = degrees[photo], value == 90 || value == 270 {
                (record["width"], record["height"]) = (record["height"], record["width"])
            }
            let target = place[photo] ?? lineIDs[lineOfPhoto[photo]]
            if target != lineIDs[lineOfPhoto[photo]] { record.removeValue(forKey: "geocode") }
            photos[photo] = record
            if let line = lineByID[target] {
                members[line].append(photo)
            } else {
                newLines[target, default: []].append(photo)
            }
        }
        var text: [String] = []
        for line in records.indices where !members[line].isEmpty {
            records[line]["photos"] = members[line].sorted().map { photos[$0] }
            text.append(try Self.line(records[line]))
        }
        for (id, list) in newLines.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            let parts = id.split(separator: ",").map { Double($0)! }
            text.append(try Self.line(["latitude": parts[0], "longitude": parts[1], "photos": list.sorted().map { photos[$0] }]))
        }
        return try CatalogFixture.sourceDirectory(lines: text)
    }

    /// The `locationID` of a source point.
    private static func identifier(_ latitude: NSNumber, _ longitude: NSNumber) -> String {
        String(format: "%.6f,%.6f", latitude.doubleValue, longitude.doubleValue)
    }

    /// A record as one line: its point written as Swift's shortest round-trip spelling, so
    /// the import reads back the very doubles; the photos as `JSONSerialization` writes them.
    private static func line(_ record: [String: Any]) throws -> String {
        let latitude = (record["latitude"] as? NSNumber)?.doubleValue ?? (record["latitude"] as! Double)
        let longitude = (record["longitude"] as? NSNumber)?.doubleValue ?? (record["longitude"] as! Double)
        let photos = String(decoding: try JSONSerialization.data(withJSONObject: record["photos"]!), as: UTF8.self)
        return #"{"latitude": \#(latitude.description), "longitude": \#(longitude.description), "photos": \#(photos)}"#
    }
}
