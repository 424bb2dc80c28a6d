/// What can go wrong with a walk request that the client caused.
public enum WalkError: Error, Sendable, Equatable {
    /// No walk of this user has this ID (another user's, deleted, never issued, or
    /// not shaped like a walk ID at all).
    case walkNotFound
    /// The photo is not in the walk's stream (never was, or was removed).
    case photoNotInWalk
    /// The walk already holds its maximum of accepted points (`WalkRules.maximumPoints`).
    case walkFull(maximumPoints: Int)
    /// The user keeps the most walks one user may (`WalkRules.maximumWalks`).
    case walkLimitReached(maximumWalks: Int)
    /// The batch's point at `index` was recorded before the point ahead of it.
    case recordedOutOfOrder(index: Int)
    /// The batch's point at `index` was recorded more than `WalkRules.maximumClockLead`
    /// after the server's clock.
    case recordedInTheFuture(index: Int)
}
