import Foundation

/// One photo of a walk's stream: which photo, when, where the walker was, and how
/// far from there its location lies.
public struct WalkEntry: Sendable, Equatable {
    public let photoID: String
    public let addedAt: Date
    /// The accepted point that gained it.
    public let point: WalkPoint
    /// From `point` to the photo's location, in metres.
    public let distanceMeters: Double
}
