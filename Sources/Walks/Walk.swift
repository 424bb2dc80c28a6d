import Foundation

/// A walk as its owner sees it.
public struct Walk: Sendable, Equatable {
    public let walkID: String
    public let startedAt: Date
    /// When a point was last accepted or a photo removed; `startedAt` until then.
    public let updatedAt: Date
    public let pointCount: Int
    /// The sum of the unrounded legs between accepted points, in metres.
    public let distanceMeters: Double
    /// The entries now in the stream (removed photos are not counted).
    public let photoCount: Int
}
