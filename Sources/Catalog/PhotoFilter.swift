/// Which photos a query keeps: a closed year range, a subject topic and a borough, each
/// optional. Years and topic are photo-level (a location is kept when one of its photos
/// passes both); the borough is location-level.
public struct PhotoFilter: Sendable, Hashable {
    /// Photos with at least one year `>= fromYear`; undated photos never match.
    public var fromYear: Int?
    /// Photos with at least one year `<= toYear`; undated photos never match.
    public var toYear: Int?
    /// Only photos with this topic (its number in `PhotoCatalog.topicIndex`).
    public var topic: Int?
    /// Only locations inside this borough.
    public var borough: Borough?

    public init(fromYear: Int? = nil, toYear: Int? = nil, topic: Int? = nil, borough: Borough? = nil) {
        self.fromYear = fromYear
        self.toYear = toYear
        self.topic = topic
        self.borough = borough
    }

    /// Whether the filter looks at photo years at all.
    public var filtersYears: Bool { fromYear != nil || toYear != nil }

    /// Whether the filter looks at photos at all (years or topic): without, every photo
    /// of a kept location counts.
    public var filtersPhotos: Bool { filtersYears || topic != nil }

    /// Whether one of `years` lies in the closed range `fromYear...toYear`.
    public func matches(years: [Int]) -> Bool {
        let lower = fromYear ?? Int.min
        let upper = toYear ?? Int.max
        return years.contains { $0 >= lower && $0 <= upper }
    }
}
