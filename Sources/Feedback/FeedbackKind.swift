/// What a feedback says is wrong with a photo; its JSON name is the raw value.
public enum FeedbackKind: String, Sendable, CaseIterable {
    /// The photo was taken somewhere else.
    case location
    /// The photo was taken in another year.
    case date
    /// The photo is sideways or upside down.
    case rotation
    /// Anything else, in words; never changes the catalog.
    case other

    /// The body fields of this kind, beside `kind`: a field of another kind is unknown.
    public var fields: [String] {
        switch self {
        case .location: ["latitude", "longitude"]
        case .date: ["year"]
        case .rotation: ["degrees"]
        case .other: ["text"]
        }
    }
}
