import Catalog

/// The rules each kind of feedback keeps (openapi.yaml `FeedbackRequest`), and the
/// per-user daily limit of fair use.
public enum FeedbackRules {
    /// How far from the photo's place in the shipped data a suggested place may be.
    public static let maximumDistanceMeters = 50_000.0
    /// The years a `date` may name: the photographs of the collection were taken in them.
    public static let years = 1800...2025
    /// The clockwise turns a `rotation` may name.
    public static let degrees: Set<Int> = [90, 180, 270]
    /// The length of an `other`'s text, in Characters (extended grapheme clusters), as
    /// usernames and display names are counted.
    public static let textLength = 1...1000
    /// New feedbacks one user may send within any 24 hours (a replaced open one is not new).
    public static let dailyLimit = 100
    /// The window of `dailyLimit`, in seconds.
    static let dailyWindowSeconds: Int64 = 24 * 60 * 60

    /// Checks `change` against its kind's rules; `shipped` is the photo's place in the
    /// shipped data (not in any corrected generation, so a place accepted once cannot
    /// carry the photo another 50 km, and so on).
    /// - Throws: `FeedbackError.invalidField` naming the field at fault.
    static func validate(_ change: FeedbackChange, shipped: CatalogLocation) throws {
        switch change {
        case .location(let latitude, let longitude):
            guard (-90...90).contains(latitude) else { throw invalid("latitude", "must be a number from -90 to 90") }
            guard (-180...180).contains(longitude) else { throw invalid("longitude", "must be a number from -180 to 180") }
            let distance = GreatCircle.distance(
                latitude1: shipped.latitude, longitude1: shipped.longitude, latitude2: latitude, longitude2: longitude)
            guard distance <= maximumDistanceMeters else {
                throw invalid(
                    "latitude",
                    "and longitude must be within \(Int(maximumDistanceMeters / 1000)) km of the photo's place in the "
                        + "catalog (\(shipped.latitude), \(shipped.longitude)); this point is \(Int(distance / 1000)) km away")
            }
        case .date(let year):
            guard years.contains(year) else {
                throw invalid("year", "must be a year from \(years.lowerBound) to \(years.upperBound)")
            }
        case .rotation(let degrees):
            guard Self.degrees.contains(degrees) else { throw invalid("degrees", "must be 90, 180 or 270") }
        case .other(let text):
            guard !text.unicodeScalars.contains(where: { $0 != "\n" && $0.properties.generalCategory == .control }) else {
                throw invalid("text", "must not contain control characters other than line feeds")
            }
            guard textLength.contains(text.count) else {
                throw invalid("text", "must be \(textLength.lowerBound) to \(textLength.upperBound) characters long")
            }
        }
    }

    private static func invalid(_ field: String, _ reason: String) -> FeedbackError {
        .invalidField(field: field, reason: reason)
    }
}
