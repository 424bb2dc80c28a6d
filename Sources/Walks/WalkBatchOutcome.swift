/// What sending a batch of recorded points did to a walk: one result per point, in
/// the batch's order, and the walk after the last of them.
public struct WalkBatchOutcome: Sendable, Equatable {
    public let results: [WalkPointResult]
    public let walk: Walk
}
