import Foundation

/// A point of a walk and when it was recorded: an accepted point of a walk's route,
/// or one of the points a phone recorded offline and sends in a batch.
public struct RoutePoint: Sendable, Equatable {
    public let point: WalkPoint
    public let recordedAt: Date

    public init(point: WalkPoint, recordedAt: Date) {
        self.point = point
        self.recordedAt = recordedAt
    }
}
