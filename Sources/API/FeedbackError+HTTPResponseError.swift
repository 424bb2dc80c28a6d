import Feedback
import HTTPServer

extension FeedbackError: HTTPResponseError {
    /// The problem the client sees. Another user's feedback is a 404 like one that never
    /// existed: the answer tells nothing of other users' feedback.
    public var problem: HTTPError? {
        switch self {
        case .photoNotFound(let photoID):
            HTTPError.unknownPhoto(photoID)
        case .invalidField(let field, let reason):
            HTTPError(.badRequest, detail: "\(field) \(reason)")
        case .dailyLimitReached(let maximum, let seconds):
            HTTPError(
                .tooManyRequests,
                detail: "a user sends at most \(maximum) new feedbacks in 24 hours; try again in \(seconds) s",
                headers: HTTPHeaders([("Retry-After", String(seconds))]))
        case .feedbackNotFound:
            HTTPError(.notFound, detail: "feedbackID names no feedback you may see")
        case .notModerator:
            HTTPError(.forbidden, detail: "only a moderator may do this; the server's operator names them")
        case .alreadyDecided(let status):
            HTTPError(.conflict, detail: "this feedback was decided already: it is \(status.rawValue)")
        }
    }
}
