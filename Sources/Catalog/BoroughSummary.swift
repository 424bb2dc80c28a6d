/// What the catalog holds in one borough (`GET /boroughs`).
public struct BoroughSummary: Sendable, Equatable {
    /// The box around a set of points.
    public struct BoundingBox: Sendable, Equatable {
        public let south: Double
        public let west: Double
        public let north: Double
        public let east: Double
    }

    public let borough: Borough
    public let locationCount: Int
    public let photoCount: Int
    /// The box around the borough's locations; nil when it has none.
    public let bbox: BoundingBox?
}
