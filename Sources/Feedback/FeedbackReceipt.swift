/// The outcome of sending feedback: the feedback as stored, and whether this call
/// created it (false: it replaced the fields of the sender's open feedback of the same
/// photo and kind, which keeps its ID and `createdAt`).
public struct FeedbackReceipt: Sendable, Equatable {
    public let feedback: Feedback
    public let created: Bool
}
