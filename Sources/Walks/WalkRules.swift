/// The numbers that shape a walk: how far apart accepted points are, how far a
/// photo may lie from the walker, and how long a walk may grow.
public enum WalkRules {
    /// A point nearer than this to the last accepted point is not accepted (metres).
    public static let minimumStep = 100.0
    /// A photo's location lies at most this far from the point that gained it (metres, inclusive).
    public static let photoRadius = 250.0
    /// Accepted points one walk holds: a two-hour walk takes about 100; the cap bounds
    /// a walk's rows and the work of each of its points.
    public static let maximumPoints = 5_000
    /// Walks one user keeps: a walk a day for almost three years; the cap bounds a
    /// user's rows (with `maximumPoints`, their walks' points).
    public static let maximumWalks = 1_000
    /// Points one batch holds: a little over two hours of a point every 15 s, and a body
    /// well inside the server's 64 KiB limit.
    public static let batchPoints = 1...500
    /// How far after the server's clock a batch point's `recordedAt` may lie: phones'
    /// clocks drift, but a point from the future would shut out the points recorded
    /// before it (seconds).
    public static let maximumClockLead = 300.0
}
