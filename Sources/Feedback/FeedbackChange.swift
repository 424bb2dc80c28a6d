import Catalog

/// What a feedback says, with its kind's fields.
public enum FeedbackChange: Sendable, Equatable {
    /// Where the photo was taken.
    case location(latitude: Double, longitude: Double)
    /// The year the photo was taken.
    case date(year: Int)
    /// The clockwise turn, in degrees, that makes the photo upright.
    case rotation(degrees: Int)
    /// Anything else, in the sender's words.
    case other(text: String)

    public var kind: FeedbackKind {
        switch self {
        case .location: .location
        case .date: .date
        case .rotation: .rotation
        case .other: .other
        }
    }

    /// The catalog correction this feedback makes once accepted; nil for `other`, which
    /// never changes the catalog.
    public var correction: CatalogCorrection.Change? {
        switch self {
        case .location(let latitude, let longitude): .location(latitude: latitude, longitude: longitude)
        case .date(let year): .date(year: year)
        case .rotation(let degrees): .rotation(degrees: degrees)
        case .other: nil
        }
    }
}
