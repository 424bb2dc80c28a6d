/// Which locations differ between two generations of the catalog (`GET /catalog/changes`),
/// worked out from their corrections alone, without building the older generation.
///
/// Only the photos whose corrected fields differ between the two can change a location,
/// and only the locations they are at in either generation. What such a location's
/// snapshot line says is decided by its ID (point and borough), and by its photos in
/// order, each with its year and whether its sides are swapped (its label is its own
/// where it was shipped at that location, else none; the location's label follows from
/// theirs). So two generations' lines of a location are equal exactly when those lists
/// are: a photo moved away and back, or a turn of 180 degrees, changes no line.
public enum CatalogChanges {
    /// A location that differs: gone from the newer generation, or with another line there.
    public struct Change: Sendable, Equatable {
        public let locationID: String
        public let isDeleted: Bool
    }

    /// The locations whose lines differ between the generation of `old` and that of
    /// `new`, in `locationID` order (bytes, as the snapshot's lines).
    public static func between(_ old: PhotoCorrections, _ new: PhotoCorrections, shipped: ShippedCatalog) -> [Change] {
        var candidates = Set<String>()
        for photo in Set(old.fields.keys).union(new.fields.keys) where old.fields[photo] != new.fields[photo] {
            let shippedID = shipped.locations[shipped.photos[photo].locationIndex].locationID
            candidates.insert(old.fields[photo]?.place?.locationID ?? shippedID)
            candidates.insert(new.fields[photo]?.place?.locationID ?? shippedID)
        }
        guard !candidates.isEmpty else { return [] }
        let (oldArrivals, newArrivals) = (arrivals(old), arrivals(new))
        var changes: [Change] = []
        for locationID in candidates {
            let before = members(of: locationID, corrections: old, arrivals: oldArrivals, shipped: shipped)
            let after = members(of: locationID, corrections: new, arrivals: newArrivals, shipped: shipped)
            if before != after { changes.append(Change(locationID: locationID, isDeleted: after.isEmpty)) }
        }
        return changes.sorted { $0.locationID.utf8.lexicographicallyPrecedes($1.locationID.utf8) }
    }

    /// A photo as it shows in its location's line, besides what its location decides.
    private struct Member: Equatable {
        let photo: Int
        let year: Int?
        let swapsSides: Bool
    }

    /// The photos each correction moved, by the ID of the location they are at.
    private static func arrivals(_ corrections: PhotoCorrections) -> [String: [Int]] {
        var arrivals: [String: [Int]] = [:]
        for (photo, fields) in corrections.fields {
            if let place = fields.place { arrivals[place.locationID, default: []].append(photo) }
        }
        return arrivals
    }

    /// A location's photos in a generation, in shipped order; empty when it has none there.
    private static func members(
        of locationID: String, corrections: PhotoCorrections, arrivals: [String: [Int]], shipped: ShippedCatalog
    ) -> [Member] {
        var photos = arrivals[locationID] ?? []
        if let location = shipped.locationIndex(locationID: locationID) {
            photos += shipped.locations[location].photos.filter { corrections.fields[$0]?.place == nil }
        }
        return photos.sorted().map { photo in
            let fields = corrections.fields[photo]
            return Member(photo: photo, year: fields?.year, swapsSides: (fields?.rotation ?? 0) % 180 != 0)
        }
    }
}
