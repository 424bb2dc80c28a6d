/// A tour to plan (an orienteering problem): from a start, visit some of `sites`,
/// each at most once, within `budget`, collecting the most photos; among tours with
/// as many photos, the shortest walk is better.
///
/// `greedyTour()` is the baseline the API promises to match or beat; `bestTour()` is
/// the answer: exact when few sites are within reach, otherwise a local search that
/// starts from the greedy tour. Both are deterministic: no clock, no chance.
public struct OrienteeringProblem: Sendable {
    public let sites: [TourSite]
    public let budget: TourBudget
    /// The start, then `sites` in order: a site's point is `points[site + 1]`.
    let points: [Waypoint]
    /// `photoCount` by point, 0 for the start.
    let photos: [Int]

    /// At most this many sites within reach are solved exactly (2^n·n² steps: 100 000 at 10).
    public static let exactLimit = 10

    /// - Parameter sites: in the order that breaks ties (the catalog passes them by
    ///   `locationID`): of two equally good choices, the earlier site wins.
    public init(latitude: Double, longitude: Double, sites: [TourSite], budget: TourBudget) {
        self.sites = sites
        self.budget = budget
        points = [Waypoint(latitude: latitude, longitude: longitude)]
            + sites.map { Waypoint(latitude: $0.latitude, longitude: $0.longitude) }
        photos = [0] + sites.map(\.photoCount)
    }

    /// The greedy tour: from the current point, go to the site that still fits the
    /// budget with the highest `photoCount / (leg minutes + 3)` (ties: the nearer, then
    /// the earlier site), until none fits or the tour has `budget.maxStops` stops.
    public func greedyTour() -> Tour {
        tour(greedyOrder())
    }

    /// The best tour found: the best there is when at most `exactLimit` sites lie
    /// within reach (`TourBudget.reachMeters`), otherwise the greedy tour improved by
    /// local search within a fixed amount of work. Never worse than `greedyTour()`.
    public func bestTour() -> Tour {
        let reachable = (1..<points.count).filter { points[0].meters(to: points[$0]) <= budget.reachMeters }
        if reachable.count <= Self.exactLimit {
            return tour(exactOrder(reachable))
        }
        var search = TourLocalSearch(problem: self, reachable: reachable)
        return tour(search.improve(greedyOrder()))
    }

    /// The tour through `order`, indices of `points`.
    func tour(_ order: [Int]) -> Tour {
        Tour(points, sites: sites, order: order)
    }

    /// The walking metres of `order` from the start, leg by leg in walking order,
    /// exactly as `Tour` adds them up.
    func meters(_ order: [Int]) -> Double {
        var previous = 0
        var total = 0.0
        for point in order {
            total += points[previous].meters(to: points[point])
            previous = point
        }
        return total
    }
}
