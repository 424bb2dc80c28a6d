import TestSupport
import Catalog
import Foundation
import Gzip

/// The source data read independently of the catalog (JSONSerialization, plain arrays)
/// and brute-force answers to catalog queries, to check the index against.
struct Oracle: Sendable {
    struct Photo: Sendable {
        let id: String
        let title: String?
        let date: String?
        let folder: String?
        let text: String?
        let years: [String]
        let label: String?
        let thumbnailURL: String
    }

    struct Location: Sendable {
        let id: String
        let latitude: Double
        let longitude: Double
        let photos: [Photo]
        /// The geocoder's borough of the first photo that names one.
        let geocodedBorough: String?
        /// Taken from the catalog: the oracle does not redo point-in-polygon.
        let borough: Borough?
    }

    let locations: [Location]

    init(path: String, catalog: PhotoCatalog) throws {
        var boroughs: [String: Borough?] = [:]
        for location in catalog.locations { boroughs[location.locationID] = location.borough }
        var locations: [Location] = []
        let reader = try GzipFileReader(path: path)
        try reader.forEachLine { line, _ in
            let object = try JSONSerialization.jsonObject(with: Data(line)) as! [String: Any]
            let latitude = (object["latitude"] as! NSNumber).doubleValue
            let longitude = (object["longitude"] as! NSNumber).doubleValue
            var geocodedBorough: String?
            let photos = (object["photos"] as! [[String: Any]]).map { record -> Photo in
                let title = record["title"] as! String
                let date = record["date"] as! String
                var years: [String] = []
                for year in record["years"] as! [String] where !year.isEmpty && !years.contains(year) {
                    years.append(year)
                }
                let geocode = record["geocode"] as? [String: Any]
                let place = geocode?["location"] as? [String: Any]
                if geocodedBorough == nil { geocodedBorough = place?["boro"] as? String }
                return Photo(
                    id: record["id"] as! String, title: title == "" ? nil : title, date: date == "" ? nil : date,
                    folder: record["original_title"] as? String, text: record["text"] as? String, years: years,
                    label: Self.label(geocode), thumbnailURL: record["thumb_url"] as! String)
            }
            let id = String(format: "%.6f,%.6f", latitude, longitude)
            locations.append(
                Location(
                    id: id, latitude: latitude, longitude: longitude, photos: photos,
                    geocodedBorough: geocodedBorough, borough: boroughs[id] ?? nil))
        }
        self.locations = locations
    }

    static func label(_ geocode: [String: Any]?) -> String? {
        guard let geocode else { return nil }
        let place = geocode["location"] as? [String: Any] ?? [:]
        let text: String
        if let first = place["str1"] as? String, let second = place["str2"] as? String {
            text = "\(first) & \(second)"
        } else if let number = place["num"] as? Int, let street = place["street"] as? String {
            text = "\(number) \(street)"
        } else {
            text = (geocode["source"] as? String ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return text.isEmpty ? nil : text
    }

    /// Most frequent label; ties go to the smallest string.
    static func intersection(_ photos: [Photo]) -> String? {
        let counts = Dictionary(photos.compactMap(\.label).map { ($0, 1) }, uniquingKeysWith: +)
        let best = counts.values.max()
        return counts.filter { $0.value == best }.keys.sorted().first
    }

    static func distance(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let radians = Double.pi / 180
        let dLat = (lat2 - lat1) * radians, dLon = (lon2 - lon1) * radians
        let h = pow(sin(dLat / 2), 2) + cos(lat1 * radians) * cos(lat2 * radians) * pow(sin(dLon / 2), 2)
        return 2 * 6_371_008.8 * asin(min(1, sqrt(h)))
    }

    /// The initial great-circle bearing from point 1 to point 2 in degrees, 0 ≤ b < 360,
    /// by the formula the API document gives.
    static func bearing(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let radians = Double.pi / 180
        let deltaLambda = (lon2 - lon1) * radians
        let degrees = atan2(
            sin(deltaLambda) * cos(lat2 * radians),
            cos(lat1 * radians) * sin(lat2 * radians) - sin(lat1 * radians) * cos(lat2 * radians) * cos(deltaLambda)) / radians
        let normalized = degrees < 0 ? degrees + 360 : degrees
        return normalized >= 360 ? 0 : normalized
    }

    /// The photos of a location that pass the year and topic filters, in source order.
    static func matching(_ location: Location, _ filter: PhotoFilter) -> [Photo] {
        let topics = filter.topic.map { _ in try! TopicOracle.load() }
        if let topics, let topic = filter.topic {
            return matching(location, PhotoFilter(fromYear: filter.fromYear, toYear: filter.toYear)).filter {
                topics.photo($0.id, has: topic)
            }
        }
        guard filter.fromYear != nil || filter.toYear != nil else { return location.photos }
        return location.photos.filter { photo in
            photo.years.contains { year in
                guard let value = Int(year) else { return false }
                return value >= (filter.fromYear ?? .min) && value <= (filter.toYear ?? .max)
            }
        }
    }

    struct Found: Equatable {
        let id: String
        let photoCount: Int
    }

    func nearby(_ query: NearbyQuery) -> [(found: Found, distance: Double)] {
        let candidates = locations.compactMap { location -> (found: Found, distance: Double)? in
            if let borough = query.filter.borough, location.borough != borough { return nil }
            let count = Self.matching(location, query.filter).count
            guard count > 0 else { return nil }
            let distance = Self.distance(query.latitude, query.longitude, location.latitude, location.longitude)
            if let radius = query.radius, distance > radius { return nil }
            if let cone = query.cone, distance > 15 {
                let difference = abs(Self.bearing(query.latitude, query.longitude, location.latitude, location.longitude) - cone.heading)
                guard min(difference, 360 - difference) <= cone.fieldOfView / 2 else { return nil }
            }
            return (Found(id: location.id, photoCount: count), distance)
        }
        let sorted = candidates.sorted { $0.distance != $1.distance ? $0.distance < $1.distance : $0.found.id < $1.found.id }
        return Array(sorted.prefix(query.limit))
    }

    func region(_ query: RegionQuery) -> (found: [Found], total: Int) {
        let inside = locations.compactMap { location -> Found? in
            guard location.latitude >= query.south, location.latitude <= query.north else { return nil }
            let longitudeInside = query.west <= query.east
                ? location.longitude >= query.west && location.longitude <= query.east
                : location.longitude >= query.west || location.longitude <= query.east
            guard longitudeInside else { return nil }
            if let borough = query.filter.borough, location.borough != borough { return nil }
            let count = Self.matching(location, query.filter).count
            return count > 0 ? Found(id: location.id, photoCount: count) : nil
        }
        let sorted = inside.sorted { $0.photoCount != $1.photoCount ? $0.photoCount > $1.photoCount : $0.id < $1.id }
        return (Array(sorted.prefix(query.limit)), sorted.count)
    }
}
