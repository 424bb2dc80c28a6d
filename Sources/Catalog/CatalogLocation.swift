import Foundation

/// One point of the catalog with one or more photos (an OldNYC "image group").
public struct CatalogLocation: Sendable {
    /// The point as `"%.6f,%.6f"` of latitude and longitude.
    public let locationID: String
    public let latitude: Double
    public let longitude: Double
    /// The borough polygon containing the point, nil if none does.
    public let borough: Borough?
    /// The most frequent label among its photos (ties: the smallest string), nil if none has one.
    public let intersection: String?
    /// Its photos' indices in `PhotoCatalog.photos`, in source-file order.
    public let photos: Range<Int>

    /// - Parameter locationID: `identifier(latitude:longitude:)` of the point, as stored.
    init(
        locationID: String, latitude: Double, longitude: Double, borough: Borough?, intersection: String?,
        photos: Range<Int>
    ) {
        self.locationID = locationID
        self.latitude = latitude
        self.longitude = longitude
        self.borough = borough
        self.intersection = intersection
        self.photos = photos
    }

    /// The `locationID` of a point.
    public static func identifier(latitude: Double, longitude: Double) -> String {
        String(format: "%.6f,%.6f", latitude, longitude)
    }

    /// The label shown for a location: the most frequent one, ties broken by the
    /// smallest string in code-point (UTF-8 byte) order.
    static func mostFrequentLabel(_ labels: [String?]) -> String? {
        var counts: [String: Int] = [:]
        for case let label? in labels { counts[label, default: 0] += 1 }
        return counts.min { lhs, rhs in
            lhs.value != rhs.value ? lhs.value > rhs.value : lhs.key.utf8.lexicographicallyPrecedes(rhs.key.utf8)
        }?.key
    }
}
