/// A walking tour: an open path from a start through its stops, in order.
public struct Tour: Sendable, Equatable {
    public let startLatitude: Double
    public let startLongitude: Double
    public let stops: [TourStop]
    /// The sum of the unrounded legs, added in walking order.
    public let distanceMeters: Double
    /// The sum of the stops' photo counts.
    public let photoCount: Int

    /// Walking plus 3 minutes a stop, unrounded.
    public var durationMinutes: Double {
        TourBudget.minutes(walking: distanceMeters, stops: stops.count)
    }

    /// The tour through `order` (indices of `points`, 0 being the start) with its legs measured.
    init(_ points: [Waypoint], sites: [TourSite], order: [Int]) {
        startLatitude = points[0].latitude
        startLongitude = points[0].longitude
        var stops: [TourStop] = []
        stops.reserveCapacity(order.count)
        var previous = 0
        var distance = 0.0
        for point in order {
            let leg = points[previous].meters(to: points[point])
            distance += leg
            stops.append(TourStop(site: sites[point - 1], legMeters: leg))
            previous = point
        }
        self.stops = stops
        distanceMeters = distance
        photoCount = stops.reduce(0) { $0 + $1.site.photoCount }
    }
}
