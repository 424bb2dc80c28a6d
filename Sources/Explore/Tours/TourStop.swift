/// One stop of a tour and the leg walked to reach it.
public struct TourStop: Sendable, Equatable {
    public let site: TourSite
    /// The great-circle distance from the previous point (the start, for the first stop), unrounded.
    public let legMeters: Double
}
