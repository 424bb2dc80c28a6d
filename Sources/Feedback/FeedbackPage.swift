/// One page of a list of feedback: the user's own, newest first, or the moderation
/// queue, oldest first.
public struct FeedbackPage: Sendable, Equatable {
    public let feedback: [Feedback]
    /// Pass back as `cursor` for the next page; nil on the last page.
    public let nextCursor: String?
}
