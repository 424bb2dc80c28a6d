import HTTPServer
import Walks

extension WalkError: HTTPResponseError {
    /// The problem the client sees. Another user's walk is a 404 like a walk that never
    /// existed: the answer tells nothing of other users' walks.
    public var problem: HTTPError? {
        switch self {
        case .walkNotFound:
            HTTPError(.notFound, detail: "walkID names no walk of yours")
        case .photoNotInWalk:
            HTTPError(.notFound, detail: "photoID is not in this walk's stream")
        case .walkFull(let maximumPoints):
            HTTPError(.conflict, detail: "the walk already holds \(maximumPoints) accepted points; start a new walk")
        case .walkLimitReached(let maximumWalks):
            HTTPError(.conflict, detail: "a user keeps at most \(maximumWalks.groupedByThousands) walks; delete one first")
        case .recordedOutOfOrder(let index):
            HTTPError(
                .badRequest,
                detail: "points[\(index)].recordedAt is before points[\(index - 1)].recordedAt: a batch's times must not decrease")
        case .recordedInTheFuture(let index):
            HTTPError(
                .badRequest,
                detail: "points[\(index)].recordedAt is more than \(Int(WalkRules.maximumClockLead / 60)) minutes after the server's clock")
        }
    }
}
