import TestSupport
import Catalog
import Foundation

/// Clusters worked out the slow, obvious way, straight from the rules of the API
/// document: every location tested against the box and the filter, its cell computed
/// from its own coordinates at the asked zoom, cells gathered in a dictionary, their
/// representative chosen by comparing location IDs as strings. Shares no code with
/// `ClusterIndex`.
struct ClusterOracle: Sendable {
    /// A cluster as the API shows it.
    struct Expected: Sendable {
        var latitude: Double
        var longitude: Double
        var locationCount: Int
        var photoCount: Int
        var south: Double
        var west: Double
        var north: Double
        var east: Double
        var locationID: String?
        var thumbnailURL: String

        /// Equal, the means within rounding (summing in another order may move the last bits).
        func matches(_ other: Expected) -> Bool {
            abs(latitude - other.latitude) < 1e-9 && abs(longitude - other.longitude) < 1e-9
                && locationCount == other.locationCount && photoCount == other.photoCount
                && [south, west, north, east] == [other.south, other.west, other.north, other.east]
                && locationID == other.locationID && thumbnailURL == other.thumbnailURL
        }
    }

    struct Query: Sendable, CustomStringConvertible {
        var south: Double
        var west: Double
        var north: Double
        var east: Double
        var zoom: Int
        var limit: Int
        var fromYear: Int?
        var toYear: Int?
        var borough: Borough?
        /// A topic's number in `TopicOracle`'s numbering (the API's).
        var topic: Int?

        var description: String {
            "south=\(south) west=\(west) north=\(north) east=\(east) zoom=\(zoom) limit=\(limit) "
                + "from=\(fromYear.map(String.init) ?? "-") to=\(toYear.map(String.init) ?? "-") borough=\(borough?.rawValue ?? "-") "
                + "topic=\(topic.map(String.init) ?? "-")"
        }
    }

    private struct Point: Sendable {
        let id: String
        let latitude: Double
        let longitude: Double
        let borough: Borough?
        /// Its photos in source order: ID, thumbnail, and years read as numbers.
        let photos: [(id: String, thumbnailURL: String, years: [Int])]
    }

    private let points: [Point]

    init(catalog: PhotoCatalog) {
        points = catalog.locations.map { location in
            Point(
                id: location.locationID, latitude: location.latitude, longitude: location.longitude,
                borough: location.borough,
                photos: location.photos.map {
                    (catalog.photos[$0].photoID, catalog.photos[$0].thumbnailURL, catalog.photos[$0].years.compactMap { Int($0) })
                })
        }
    }

    func clusters(_ query: Query) -> (clusters: [Expected], total: Int) {
        struct Member {
            let point: Point
            let matching: Int
            let firstMatching: String
        }
        var cells: [[Int]: [Member]] = [:]
        for point in points {
            guard point.latitude >= query.south, point.latitude <= query.north else { continue }
            let insideLongitudes = query.west <= query.east
                ? point.longitude >= query.west && point.longitude <= query.east
                : point.longitude >= query.west || point.longitude <= query.east
            guard insideLongitudes else { continue }
            if let borough = query.borough, point.borough != borough { continue }
            var matching = point.photos.count
            var firstMatching = point.photos[0].thumbnailURL
            if query.fromYear != nil || query.toYear != nil || query.topic != nil {
                let kept = point.photos.filter { photo in
                    if let topic = query.topic, !(try! TopicOracle.load()).photo(photo.id, has: topic) { return false }
                    guard query.fromYear != nil || query.toYear != nil else { return true }
                    return photo.years.contains { $0 >= (query.fromYear ?? .min) && $0 <= (query.toYear ?? .max) }
                }
                guard let first = kept.first else { continue }
                matching = kept.count
                firstMatching = first.thumbnailURL
            }
            cells[Self.cell(point.latitude, point.longitude, zoom: query.zoom), default: []]
                .append(Member(point: point, matching: matching, firstMatching: firstMatching))
        }
        let clusters = cells.values.map { members -> (expected: Expected, representative: String) in
            let best = members.min { lhs, rhs in
                lhs.matching != rhs.matching
                    ? lhs.matching > rhs.matching : lhs.point.id.utf8.lexicographicallyPrecedes(rhs.point.id.utf8)
            }!
            let expected = Expected(
                latitude: members.map(\.point.latitude).reduce(0, +) / Double(members.count),
                longitude: members.map(\.point.longitude).reduce(0, +) / Double(members.count),
                locationCount: members.count, photoCount: members.map(\.matching).reduce(0, +),
                south: members.map(\.point.latitude).min()!, west: members.map(\.point.longitude).min()!,
                north: members.map(\.point.latitude).max()!, east: members.map(\.point.longitude).max()!,
                locationID: members.count == 1 ? members[0].point.id : nil, thumbnailURL: best.firstMatching)
            return (expected, best.point.id)
        }
        let sorted = clusters.sorted { lhs, rhs in
            lhs.expected.photoCount != rhs.expected.photoCount
                ? lhs.expected.photoCount > rhs.expected.photoCount
                : lhs.representative.utf8.lexicographicallyPrecedes(rhs.representative.utf8)
        }
        return (sorted.prefix(query.limit).map(\.expected), sorted.count)
    }

    /// `[x, y]` of the Web Mercator grid with `2^(zoom+2)` cells per side, as the API document writes it.
    static func cell(_ latitude: Double, _ longitude: Double, zoom: Int) -> [Int] {
        let n = pow(2, Double(zoom + 2))
        let phi = min(max(latitude, -85.05112878), 85.05112878) * Double.pi / 180
        let x = floor((longitude + 180) / 360 * n)
        let y = floor((1 - asinh(tan(phi)) / Double.pi) / 2 * n)
        return [Int(min(max(x, 0), n - 1)), Int(min(max(y, 0), n - 1))]
    }
}
