/// "What am I facing": the directions within `fieldOfView / 2` degrees of `heading`
/// (both clockwise from true north) as seen from a point, plus everything within
/// `nearbyMeters` of it, whatever its bearing (`GET /nearby?heading=&fov=`).
public struct ViewCone: Sendable, Hashable {
    /// 0 ≤ heading < 360.
    public let heading: Double
    /// 0 < fieldOfView ≤ 360.
    public let fieldOfView: Double

    /// What stands this close is seen whatever its bearing: a phone's compass and
    /// position are not precise enough to tell the side of something at arm's length.
    public static let nearbyMeters = 15.0
    public static let defaultFieldOfView = 60.0

    public init(heading: Double, fieldOfView: Double = defaultFieldOfView) {
        precondition((0..<360).contains(heading) && fieldOfView > 0 && fieldOfView <= 360, "a validated cone")
        self.heading = heading
        self.fieldOfView = fieldOfView
    }

    /// Whether a point at `bearing` degrees and `distance` metres lies in the cone.
    public func contains(bearing: Double, distance: Double) -> Bool {
        if distance <= Self.nearbyMeters { return true }
        let difference = abs(bearing - heading)
        return min(difference, 360 - difference) <= fieldOfView / 2
    }
}
