import HTTPServer

extension RefusalRule {
    /// A new feedback past the user's `FeedbackRules.dailyLimit` in 24 hours (a `429`).
    static let feedbacks = RefusalRule("feedbacks")
}
