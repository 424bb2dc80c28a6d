import Foundation

/// One feedback, as its author and the moderators see it (openapi.yaml `Feedback`).
public struct Feedback: Sendable, Equatable {
    /// Its row's `id` in decimal: what `catalog_corrections.feedback_id` holds for the
    /// correction it made, so a correction leads to its feedback.
    public let feedbackID: String
    public let photoID: String
    public let change: FeedbackChange
    public let status: FeedbackStatus
    /// When it was first sent; sending it again while open keeps this.
    public let createdAt: Date
    /// When a moderator or an agreement decided it; nil while open.
    public let decidedAt: Date?
}
