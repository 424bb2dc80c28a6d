import Foundation

/// A source location turned into what the catalog stores: borough and labels
/// computed, photo fields cleaned up as openapi.yaml describes them.
struct LocationRecord {
    let latitude: Double
    let longitude: Double
    let borough: Borough?
    let photos: [CatalogPhoto]
    /// Each photo's subject topics, as spelled, without exact repeats, in source order.
    let topics: [[String]]

    /// - Parameters:
    ///   - position: the location's 0-based line in the source file.
    ///   - reject: makes the error for a record that is well-formed JSON but not a valid location.
    init(_ source: SourceLocation, position: Int, boroughs: BoroughMap, reject: (String) -> CatalogError) throws {
        guard source.latitude.isFinite, (-90...90).contains(source.latitude) else {
            throw reject("latitude \(source.latitude) is out of range")
        }
        guard source.longitude.isFinite, (-180...180).contains(source.longitude) else {
            throw reject("longitude \(source.longitude) is out of range")
        }
        guard !source.photos.isEmpty else { throw reject("location has no photos") }
        latitude = source.latitude
        longitude = source.longitude
        borough = boroughs.borough(latitude: latitude, longitude: longitude)
        topics = source.photos.map { photo in
            var seen = Set<String>()
            return (photo.nyplFields?.subjects?.topic ?? []).filter { !$0.isEmpty && seen.insert($0).inserted }
        }
        photos = try source.photos.map { photo in
            guard !photo.id.isEmpty else { throw reject("a photo has an empty id") }
            let rotation = photo.rotation ?? 0
            guard [0, 90, 180, 270].contains(rotation) else {
                throw reject("photo \(photo.id) has rotation \(rotation), not 0, 90, 180 or 270")
            }
            var seen = Set<String>()
            let years = photo.years.filter { !$0.isEmpty && seen.insert($0).inserted }
            return CatalogPhoto(
                photoID: photo.id,
                title: photo.title.isEmpty ? nil : photo.title,
                date: photo.date.isEmpty ? nil : photo.date,
                folder: photo.originalTitle,
                text: photo.text,
                years: years,
                width: photo.width,
                height: photo.height,
                thumbnailURL: photo.thumbURL,
                photoURL: photo.imageURL,
                nyplURL: photo.nyplURL,
                intersection: Self.label(photo.geocode),
                locationIndex: position,
                sourceRotation: rotation)
        }
    }

    /// The location's label: the most frequent label of its photos.
    var intersection: String? {
        CatalogLocation.mostFrequentLabel(photos.map(\.intersection))
    }

    /// A photo's label: `"<str1> & <str2>"` for a street crossing, `"<num> <street>"`
    /// for an address, otherwise the geocode's `source`; trimmed, nil when empty.
    static func label(_ geocode: SourceLocation.Geocode?) -> String? {
        guard let geocode else { return nil }
        let text: String?
        if let location = geocode.location, let first = location.str1, let second = location.str2 {
            text = "\(first.trimmed) & \(second.trimmed)"
        } else if let location = geocode.location, let number = location.num, let street = location.street {
            text = "\(number) \(street.trimmed)"
        } else {
            text = geocode.source?.trimmed
        }
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}

extension String {
    fileprivate var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
