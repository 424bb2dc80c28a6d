/// Improves a tour by local search, within a fixed amount of work so that the same
/// problem always gets the same tour, however busy the machine.
///
/// A descent applies the best move of the first kind that improves the tour (more
/// photos, or as many on a shorter walk), until none does:
/// 1. insertion: add the site with the most photos that fits, at its cheapest place;
/// 2. swap: replace a stop by a site outside the tour with at least as many photos,
///    placed anywhere;
/// 3. order: 2-opt (reverse a stretch) or move one stop elsewhere, to shorten the
///    walk and make room for the moves above.
/// Then, for a fixed number of rounds or until `stallLimit` rounds in a row find no
/// better tour, a perturbation (removal of a stretch of one to three stops, which may
/// not return during the next descent) and a new descent from the best tour so far
/// or, when it improved, from its result.
///
/// Moves are chosen by chord lengths (`Waypoint.chordMeters`); a tour is kept only
/// when its haversine walk, added up as `Tour` does, fits the budget and improves.
/// So every tour it returns is valid, and never worse than the one it started from.
struct TourLocalSearch {
    private let problem: OrienteeringProblem
    /// The reachable points, most photos first, then in point order: a scan for a
    /// move that adds photos can stop at the first site that can no longer win.
    private let candidates: [Int]
    /// The chord from the start to each point: a walk through a site is at least this
    /// long, so a site farther than the walking a tour may do cannot join it.
    private let fromStart: [Double]
    /// Distance computations so far; the search stops once it reaches `workLimit`.
    private var work = 0

    /// At most a few milliseconds of CPU in a release build (about 0.6 ms for a whole
    /// tour at the median of the default budget). Measured with
    /// `past-nyc tour-gain` on 300 Manhattan points at the default budget: four times
    /// the work or three times the rounds find no more photos (median +10.5% over
    /// greedy); the first descent alone finds +8.9%.
    static let workLimit = 250_000
    /// Perturbation rounds after the first descent, at most.
    static let rounds = 16
    /// The perturbation stops after this many rounds in a row without a better tour:
    /// on 1,000 Manhattan points at the default budget (`past-nyc tour-gain`), the
    /// rounds after such a stall found almost nothing (median photos +11.1% over greedy
    /// either way; per point +12.7% against +13.9%) and cost a quarter of the planning.
    static let stallLimit = 4
    /// Chord lengths decide moves to a millimetre; a shortening below this is noise.
    private static let shortening = 1e-3

    /// A tour as the search sees it: its order (indices of `problem.points`), photos
    /// and exact walking metres.
    private struct Route {
        var order: [Int]
        var photos: Int
        var meters: Double

        func isBetter(than other: Route) -> Bool {
            photos != other.photos ? photos > other.photos : meters < other.meters
        }
    }

    init(problem: OrienteeringProblem, reachable: [Int]) {
        self.problem = problem
        candidates = reachable.sorted { problem.photos[$0] != problem.photos[$1] ? problem.photos[$0] > problem.photos[$1] : $0 < $1 }
        fromStart = problem.points.map { problem.points[0].chordMeters(to: $0) }
    }

    /// The best order found from `start`, a valid order; never worse than it.
    mutating func improve(_ start: [Int]) -> [Int] {
        let none = [Bool](repeating: false, count: problem.points.count)
        var best = descend(route(start), tabu: none)
        var current = best
        var stalled = 0
        for round in 0..<Self.rounds where work < Self.workLimit && !current.order.isEmpty && stalled < Self.stallLimit {
            let count = current.order.count
            let length = min(1 + (round / count) % 3, count)
            let first = round % count
            var tabu = none
            var kept: [Int] = []
            for (position, point) in current.order.enumerated() {
                if (position - first + count) % count < length { tabu[point] = true } else { kept.append(point) }
            }
            var next = descend(route(kept), tabu: tabu)
            next = descend(next, tabu: none)
            if next.isBetter(than: best) {
                best = next
                stalled = 0
            } else {
                stalled += 1
            }
            current = next.isBetter(than: current) ? next : best
        }
        return best.order
    }

    // MARK: Descent

    private mutating func descend(_ start: Route, tabu: [Bool]) -> Route {
        var route = start
        while work < Self.workLimit {
            if let better = insertion(route, tabu: tabu) ?? swap(route, tabu: tabu) ?? reordering(route) {
                route = better
            } else {
                break
            }
        }
        return route
    }

    /// The walking metres `stops` stops leave for walking.
    private func allowance(stops: Int) -> Double {
        Double(problem.budget.minutes - TourBudget.minutesPerStop * stops) * TourBudget.metersPerMinute
    }

    /// Adds the site with the most photos that fits (ties: the cheapest to add), at
    /// its cheapest place.
    private mutating func insertion(_ route: Route, tabu: [Bool]) -> Route? {
        let count = route.order.count
        guard count < problem.budget.maxStops else { return nil }
        let path = [0] + route.order
        let edges = self.edges(path)
        let walking = allowance(stops: count + 1)
        let room = walking - route.meters
        guard room >= 0 else { return nil }
        let inRoute = membership(route.order)
        var best = -1
        var bestAfter = 0
        var bestDelta = Double.infinity
        for candidate in candidates where !inRoute[candidate] && !tabu[candidate] && fromStart[candidate] <= walking {
            if best >= 0, problem.photos[candidate] < problem.photos[best] { break }
            let site = problem.points[candidate]
            work += count + 1
            for after in 0...count {
                var delta = problem.points[path[after]].chordMeters(to: site)
                if after < count { delta += site.chordMeters(to: problem.points[path[after + 1]]) - edges[after] }
                if delta <= room, delta < bestDelta {
                    best = candidate
                    bestAfter = after
                    bestDelta = delta
                }
            }
        }
        guard best >= 0 else { return nil }
        var order = route.order
        order.insert(best, at: bestAfter)
        return kept(order, over: route)
    }

    /// Replaces one stop by a site outside the tour, placed where it costs least: the
    /// replacement that gains the most photos (ties: the shortest walk).
    private mutating func swap(_ route: Route, tabu: [Bool]) -> Route? {
        let count = route.order.count
        guard count > 0 else { return nil }
        let path = [0] + route.order
        let edges = self.edges(path)
        let room = allowance(stops: count)
        let inRoute = membership(route.order)
        let fewestPhotos = route.order.map { problem.photos[$0] }.min() ?? 0
        // Walking metres once stop `removed` (a position of `path`) is left out, and the
        // leg that then joins its neighbours.
        var bridges = [Double](repeating: 0, count: count + 1)
        var withoutStop = [Double](repeating: 0, count: count + 1)
        for removed in 1...count {
            var meters = route.meters - edges[removed - 1]
            if removed < count {
                bridges[removed] = problem.points[path[removed - 1]].chordMeters(to: problem.points[path[removed + 1]])
                meters += bridges[removed] - edges[removed]
            }
            withoutStop[removed] = meters
        }
        var toCandidate = [Double](repeating: 0, count: count + 1)
        var bestGain = 0
        var bestMeters = route.meters - Self.shortening
        var best: (candidate: Int, removed: Int, after: Int)?
        for candidate in candidates where !inRoute[candidate] && !tabu[candidate] && fromStart[candidate] <= room {
            if problem.photos[candidate] - fewestPhotos < bestGain { break }
            let site = problem.points[candidate]
            for position in 0...count { toCandidate[position] = problem.points[path[position]].chordMeters(to: site) }
            work += (count + 1) * (count + 1)
            for removed in 1...count {
                let gain = problem.photos[candidate] - problem.photos[path[removed]]
                guard gain >= bestGain else { continue }
                let placed = cheapestPlace(toCandidate, edges: edges, skipping: removed, bridge: bridges[removed])
                let meters = withoutStop[removed] + placed.delta
                guard meters <= room, gain > bestGain || meters < bestMeters else { continue }
                best = (candidate, removed, placed.after)
                bestGain = gain
                bestMeters = meters
            }
        }
        guard let best else { return nil }
        var order: [Int] = []
        for position in 0...count {
            if position != 0 && position != best.removed { order.append(path[position]) }
            if position == best.after { order.append(best.candidate) }
        }
        return kept(order, over: route)
    }

    /// A shorter walk through the same stops: the first 2-opt reversal, else the first
    /// move of one stop to another place, that shortens it.
    private mutating func reordering(_ route: Route) -> Route? {
        let count = route.order.count
        guard count > 1 else { return nil }
        let path = [0] + route.order
        let edges = self.edges(path)
        work += count * count
        for first in 1..<count {
            for last in (first + 1)...count {
                var delta = problem.points[path[first - 1]].chordMeters(to: problem.points[path[last]]) - edges[first - 1]
                if last < count {
                    delta += problem.points[path[first]].chordMeters(to: problem.points[path[last + 1]]) - edges[last]
                }
                guard delta < -Self.shortening else { continue }
                var order = route.order
                order[(first - 1)..<last].reverse()
                if let shorter = kept(order, over: route) { return shorter }
            }
        }
        var toStop = [Double](repeating: 0, count: count + 1)
        for moved in 1...count {
            let stop = problem.points[path[moved]]
            for position in 0...count { toStop[position] = problem.points[path[position]].chordMeters(to: stop) }
            var bridge = 0.0
            var saved = edges[moved - 1]
            if moved < count {
                bridge = problem.points[path[moved - 1]].chordMeters(to: problem.points[path[moved + 1]])
                saved += edges[moved] - bridge
            }
            let placed = cheapestPlace(toStop, edges: edges, skipping: moved, bridge: bridge)
            guard placed.delta - saved < -Self.shortening else { continue }
            var order: [Int] = []
            for position in 1...count {
                if position != moved { order.append(path[position]) }
                if position == placed.after { order.append(path[moved]) }
            }
            if placed.after == 0 { order.insert(path[moved], at: 0) }
            if let shorter = kept(order, over: route) { return shorter }
        }
        return nil
    }

    // MARK: Helpers

    /// The route through `order`, measured exactly.
    private mutating func route(_ order: [Int]) -> Route {
        work += order.count
        return Route(order: order, photos: order.reduce(0) { $0 + problem.photos[$1] }, meters: problem.meters(order))
    }

    /// The route through `order` if it fits the budget and is better than `current`.
    private mutating func kept(_ order: [Int], over current: Route) -> Route? {
        let candidate = route(order)
        guard problem.budget.fits(meters: candidate.meters, stops: order.count), candidate.isBetter(than: current) else {
            return nil
        }
        return candidate
    }

    /// The chord of each leg of `path`: `edges[i]` joins `path[i]` and `path[i + 1]`.
    private mutating func edges(_ path: [Int]) -> [Double] {
        work += path.count
        return (0..<(path.count - 1)).map { problem.points[path[$0]].chordMeters(to: problem.points[path[$0 + 1]]) }
    }

    private func membership(_ order: [Int]) -> [Bool] {
        var inRoute = [Bool](repeating: false, count: problem.points.count)
        for point in order { inRoute[point] = true }
        return inRoute
    }

    /// Where a point costs least to insert into `path` once its element `skipping`
    /// (never 0, the start) is left out: after which position of `path`, and the
    /// added metres. `distances[i]` is the point's chord to `path[i]`; `bridge` joins
    /// the neighbours of the left-out element.
    private func cheapestPlace(
        _ distances: [Double], edges: [Double], skipping: Int, bridge: Double
    ) -> (after: Int, delta: Double) {
        let last = distances.count - 1
        var best = (after: 0, delta: Double.infinity)
        for after in 0...last where after != skipping {
            var next = after + 1
            var edge = next <= last ? edges[after] : 0
            if next == skipping {
                next += 1
                edge = bridge
            }
            let delta = next <= last ? distances[after] + distances[next] - edge : distances[after]
            if delta < best.delta { best = (after, delta) }
        }
        return best
    }
}
