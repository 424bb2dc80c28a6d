/// What sending a point did to a walk.
public enum WalkPointOutcome: Sendable, Equatable {
    /// The point was accepted; the walk gained `entry` when a photo was free nearby.
    case accepted(walk: Walk, entry: WalkEntry?)
    /// The point lay nearer than `WalkRules.minimumStep` to the last accepted one:
    /// nothing changed.
    case rejected(walk: Walk)
}
