/// An open or accepted rotation feedback of a photo, as the agreement counts it.
public struct RotationVote: Sendable, Hashable {
    /// Who sent it: the author's user ID, or, for a feedback whose author's account is
    /// gone, a value of its own that no user or other feedback has.
    public let voter: Int64
    public let degrees: Int

    public init(voter: Int64, degrees: Int) {
        self.voter = voter
        self.degrees = degrees
    }
}
