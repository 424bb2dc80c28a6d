import Foundation

/// One accepted point of a walk's route, and when it was recorded.
public struct RoutePoint: Sendable, Equatable {
    public let point: WalkPoint
    public let recordedAt: Date
}
