/// One accepted correction of the shipped catalog: a photo's place, date or rotation as
/// a moderator, or the agreement of its users, decided it (a row of the user data's
/// `catalog_corrections`). A catalog generation is the shipped data with every accepted
/// correction laid over it in `sequence` order; of one photo and kind, the last wins.
public struct CatalogCorrection: Sendable, Hashable {
    /// What the correction says.
    public enum Change: Sendable, Hashable {
        /// The photo was taken here: it belongs to the location at this point.
        case location(latitude: Double, longitude: Double)
        /// The photo was taken in this year.
        case date(year: Int)
        /// Turning the source image clockwise by this many degrees (90, 180 or 270)
        /// makes it upright.
        case rotation(degrees: Int)
    }

    /// Its place in the order corrections were accepted: rising, never reused.
    public let sequence: Int64
    public let photoID: String
    public let change: Change

    public init(sequence: Int64, photoID: String, change: Change) {
        self.sequence = sequence
        self.photoID = photoID
        self.change = change
    }
}
