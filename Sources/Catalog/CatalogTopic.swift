/// One subject topic of the archive ("Elevated railroads"): its spellings that differ
/// only in case, as one.
public struct CatalogTopic: Sendable, Equatable {
    /// The spelling most photos carry (ties: the smallest by code point).
    public let name: String
    /// Photos with the topic, in any spelling.
    public let photoCount: Int
    /// Locations with such a photo.
    public let locationCount: Int
}
