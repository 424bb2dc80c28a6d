/// Where a feedback stands; its JSON name is the raw value.
public enum FeedbackStatus: String, Sendable, CaseIterable {
    /// Waiting for a moderator (or an agreement).
    case open
    /// Accepted: a location, date or rotation is now a catalog correction.
    case accepted
    /// Rejected by a moderator.
    case rejected
}
