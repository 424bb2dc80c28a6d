/// The rotation a photo's users agree on, accepted without a moderator, as OldNYC
/// accepts its rotations: at least `minimumVoters` distinct users sent an open or
/// accepted rotation feedback for the photo, and more than 90 % of those feedbacks
/// name the same degrees. `FeedbackDesk` applies it whenever a photo's rotation
/// feedback changes (sent, replaced or decided), in that write's transaction, and
/// accepts the open feedbacks that name the agreed degrees.
public enum RotationAgreement {
    public static let minimumVoters = 2

    /// The degrees the votes agree on, nil when they do not: one pass counting each
    /// degrees value (more than 90 % can name only one of them).
    public static func agreedDegrees(_ votes: [RotationVote]) -> Int? {
        guard Set(votes.lazy.map(\.voter)).count >= minimumVoters else { return nil }
        var counts: [Int: Int] = [:]
        for vote in votes { counts[vote.degrees, default: 0] += 1 }
        guard let (degrees, count) = counts.max(by: { $0.value < $1.value }), count * 10 > votes.count * 9 else {
            return nil
        }
        return degrees
    }
}
