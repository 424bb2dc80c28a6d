/// Proof that a request's user held the moderator role when the request began
/// (`FeedbackDesk.moderator(_:)`): what the moderation queue and decisions take. The
/// role is read anew for every request, so one the operator takes away stops working
/// at the next request.
public struct Moderator: Sendable, Hashable {
    /// The moderator's row in `users`, stored as `feedback.decided_by`.
    public let userID: Int64
}
