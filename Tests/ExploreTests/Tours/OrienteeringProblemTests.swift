import Explore
import Foundation
import TestSupport
import Testing

/// The planner on random problems, against `TourOracle`.
@Suite struct OrienteeringProblemTests {
    /// A random problem around a point of Manhattan: `count` sites within `spread`
    /// metres of the start, worth 1 to 60 photos (so ties in photos happen).
    struct Instance {
        var start: TourOracle.Point
        var sites: [TourOracle.Site]
        var minutes: Int
        var maxStops: Int

        var problem: OrienteeringProblem {
            OrienteeringProblem(
                latitude: start.latitude, longitude: start.longitude,
                sites: sites.enumerated().map { index, site in
                    TourSite(location: index, latitude: site.point.latitude, longitude: site.point.longitude, photoCount: site.photos)
                },
                budget: TourBudget(minutes: minutes, maxStops: maxStops))
        }
    }

    /// Checks everything a tour must be: within the budget and the most stops, no site
    /// twice, legs the haversine distances of the coordinates, totals their sums.
    /// - Parameter visiting: the index in `instance.sites` of each stop, when its
    ///   `location` is not that index.
    static func expectValid(_ tour: Tour, _ instance: Instance, visiting: [Int]? = nil) {
        #expect(tour.stops.count <= instance.maxStops)
        let visited = visiting ?? tour.stops.map(\.site.location)
        #expect(Set(visited).count == visited.count, "a site visited twice: \(visited)")
        var previous = instance.start
        var meters = 0.0
        for (stop, index) in zip(tour.stops, visited) {
            let site = instance.sites[index]
            #expect(stop.site.photoCount == site.photos)
            #expect(abs(stop.legMeters - TourOracle.meters(previous, site.point)) < 1e-6)
            meters += stop.legMeters
            previous = site.point
        }
        #expect(tour.distanceMeters == meters)
        #expect(tour.photoCount == visited.reduce(0) { $0 + instance.sites[$1].photos })
        #expect(abs(tour.durationMinutes - (meters / 75 + 3 * Double(tour.stops.count))) < 1e-9)
        #expect(tour.durationMinutes <= Double(instance.minutes))
    }

    /// At most `exactLimit` sites, all in reach: the planner's tour is exactly the best one.
    @Test(arguments: 0..<120)
    func smallProblemsAreSolvedExactly(_ seed: Int) {
        let count = 1 + seed % OrienteeringProblem.exactLimit
        let instance = Instance(
            seed: UInt64(seed), count: count, spread: 1_500, minutes: 10...60,
            maxStops: count >= 9 ? 2...6 : 2...count + 1)
        let tour = instance.problem.bestTour()
        Self.expectValid(tour, instance)
        let best = TourOracle.best(start: instance.start, sites: instance.sites, minutes: instance.minutes, maxStops: instance.maxStops)
        #expect(tour.photoCount == best.photos, "seed \(seed)")
        #expect(abs(tour.distanceMeters - best.meters) < 1e-6, "seed \(seed)")
    }

    /// Many sites out of reach around ten within it: still exact, because only the
    /// reachable ones count.
    @Test(arguments: 0..<10)
    func sitesOutOfReachDoNotStopTheExactSearch(_ seed: Int) {
        var instance = Instance(seed: UInt64(1000 + seed), count: 10, spread: 800, minutes: 20...30, maxStops: 3...5)
        let far = Instance(seed: UInt64(2000 + seed), count: 30, spread: 40_000, minutes: 20...30, maxStops: 3...5)
        let reach = Double(instance.minutes - 3) * 75
        instance.sites += far.sites.filter { TourOracle.meters(instance.start, $0.point) > reach + 1 }
        let tour = instance.problem.bestTour()
        Self.expectValid(tour, instance)
        let best = TourOracle.best(start: instance.start, sites: instance.sites, minutes: instance.minutes, maxStops: instance.maxStops)
        #expect(tour.photoCount == best.photos && abs(tour.distanceMeters - best.meters) < 1e-6, "seed \(seed)")
    }

    /// The greedy tour is the rule's, stop for stop.
    @Test(arguments: 0..<40)
    func greedyTourFollowsTheRule(_ seed: Int) {
        let instance = Instance(
            seed: UInt64(3000 + seed), count: 5 + seed * 10, spread: 3_000, minutes: 10...240, maxStops: 2...20)
        let tour = instance.problem.greedyTour()
        Self.expectValid(tour, instance)
        let greedy = TourOracle.greedy(start: instance.start, sites: instance.sites, minutes: instance.minutes, maxStops: instance.maxStops)
        #expect(tour.stops.map(\.site.location) == greedy.order, "seed \(seed)")
    }

    /// Larger problems: a valid tour, never worse than the greedy one, and the same
    /// tour every time.
    @Test(arguments: 0..<40)
    func largeProblemsBeatOrMatchGreedy(_ seed: Int) {
        let instance = Instance(
            seed: UInt64(4000 + seed), count: 11 + seed * 25, spread: 2_000 + Double(seed) * 150, minutes: 10...240,
            maxStops: 2...20)
        let problem = instance.problem
        let tour = problem.bestTour()
        Self.expectValid(tour, instance)
        let greedy = TourOracle.greedy(start: instance.start, sites: instance.sites, minutes: instance.minutes, maxStops: instance.maxStops)
        #expect(
            tour.photoCount > greedy.photos || (tour.photoCount == greedy.photos && tour.distanceMeters <= greedy.meters + 1e-6),
            "seed \(seed): \(tour.photoCount) photos against greedy's \(greedy.photos)")
        #expect(problem.bestTour() == tour)
        #expect(instance.problem.bestTour() == tour)
    }

    /// On mid-sized problems where brute force is still possible (stops ≤ 3), the
    /// local search reaches the optimum most of the time and beats greedy on the whole.
    @Test func localSearchFindsTheOptimumOfMostSmallBudgets() {
        var optimal = 0
        var planned = 0
        var greedy = 0
        let runs = 30
        for seed in 0..<runs {
            let instance = Instance(seed: UInt64(5000 + seed), count: 40, spread: 1_200, minutes: 15...40, maxStops: 3...3)
            let tour = instance.problem.bestTour()
            let best = TourOracle.best(start: instance.start, sites: instance.sites, minutes: instance.minutes, maxStops: instance.maxStops)
            #expect(tour.photoCount <= best.photos)
            if tour.photoCount == best.photos { optimal += 1 }
            planned += tour.photoCount
            greedy += TourOracle.greedy(start: instance.start, sites: instance.sites, minutes: instance.minutes, maxStops: instance.maxStops).photos
        }
        #expect(optimal * 10 >= runs * 9, "optimal in \(optimal) of \(runs)")
        #expect(planned > greedy)
    }

    /// No site within reach, or nothing to visit: no stops.
    @Test func emptyTours() {
        let start = TourOracle.Point(latitude: 40.75, longitude: -73.98)
        let far = TourSite(location: 0, latitude: 40.85, longitude: -73.98, photoCount: 50)
        for sites in [[], [far]] {
            let problem = OrienteeringProblem(
                latitude: start.latitude, longitude: start.longitude, sites: sites, budget: TourBudget(minutes: 60, maxStops: 8))
            for tour in [problem.bestTour(), problem.greedyTour()] {
                #expect(tour.stops.isEmpty && tour.photoCount == 0 && tour.distanceMeters == 0 && tour.durationMinutes == 0)
            }
        }
    }
}

extension OrienteeringProblemTests.Instance {
    init(seed: UInt64, count: Int, spread: Double, minutes: ClosedRange<Int>, maxStops: ClosedRange<Int>) {
        var random = SeededGenerator(seed: seed)
        let start = TourOracle.Point(
            latitude: 40.70 + Double.random(in: 0..<0.1, using: &random),
            longitude: -74.01 + Double.random(in: 0..<0.06, using: &random))
        let degrees = spread / 111_000
        self.start = start
        sites = (0..<count).map { _ in
            TourOracle.Site(
                point: TourOracle.Point(
                    latitude: start.latitude + Double.random(in: -degrees...degrees, using: &random),
                    longitude: start.longitude + Double.random(in: -degrees...degrees, using: &random) * 1.3),
                photos: Int.random(in: 1...60, using: &random))
        }
        self.minutes = Int.random(in: minutes, using: &random)
        self.maxStops = Int.random(in: maxStops, using: &random)
    }
}
