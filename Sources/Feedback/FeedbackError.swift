/// What can go wrong with a feedback request that the client caused.
public enum FeedbackError: Error, Sendable, Equatable {
    /// The catalog has no photo with this ID.
    case photoNotFound(photoID: String)
    /// A field breaks its kind's rule (`FeedbackRules`); `field` is its JSON name.
    case invalidField(field: String, reason: String)
    /// The user sent `maximum` new feedbacks within the last 24 hours; the oldest of
    /// them leaves the window in `retryAfterSeconds`.
    case dailyLimitReached(maximum: Int, retryAfterSeconds: Int)
    /// No feedback with this ID that the caller may see: none at all, or another
    /// user's (to a user who is not a moderator).
    case feedbackNotFound
    /// The caller is not a moderator.
    case notModerator
    /// The feedback was decided already: it stays as it was.
    case alreadyDecided(status: FeedbackStatus)
}
