import Catalog

/// How far a walk has come: its accepted points and the distance along them. Pure:
/// deciding whether a point is accepted needs nothing else.
public struct WalkProgress: Sendable, Equatable {
    public let pointCount: Int
    /// The sum of the unrounded great-circle legs between consecutive accepted points.
    public let distanceMeters: Double
    /// The last accepted point; nil before the first.
    public let lastPoint: WalkPoint?

    public init(pointCount: Int, distanceMeters: Double, lastPoint: WalkPoint?) {
        self.pointCount = pointCount
        self.distanceMeters = distanceMeters
        self.lastPoint = lastPoint
    }

    public static let start = WalkProgress(pointCount: 0, distanceMeters: 0, lastPoint: nil)

    /// The progress once `point` is accepted, or nil when it is not: it lies nearer than
    /// `WalkRules.minimumStep` to the last accepted point. (The first point is always
    /// accepted; the cap on points is the caller's to enforce.)
    public func accepting(_ point: WalkPoint) -> WalkProgress? {
        guard let lastPoint else { return WalkProgress(pointCount: 1, distanceMeters: 0, lastPoint: point) }
        let leg = GreatCircle.distance(
            latitude1: lastPoint.latitude, longitude1: lastPoint.longitude,
            latitude2: point.latitude, longitude2: point.longitude)
        guard leg >= WalkRules.minimumStep else { return nil }
        return WalkProgress(pointCount: pointCount + 1, distanceMeters: distanceMeters + leg, lastPoint: point)
    }
}
