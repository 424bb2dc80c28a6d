/// What one point of a batch did: accepted (with the entry the walk gained, if any)
/// or not (nothing changed for it).
public struct WalkPointResult: Sendable, Equatable {
    public let accepted: Bool
    /// Nil when the point was not accepted, or gained no photo.
    public let entry: WalkEntry?

    public static let notAccepted = WalkPointResult(accepted: false, entry: nil)

    public static func accepted(entry: WalkEntry?) -> WalkPointResult {
        WalkPointResult(accepted: true, entry: entry)
    }
}
