import Foundation

/// Brute-force answers to tour problems, written apart from the planner: its own
/// haversine, every ordered subset of the sites for the best tour, the greedy rule
/// read off the API's description, every permutation for the shortest open path.
enum TourOracle {
    struct Point {
        var latitude: Double
        var longitude: Double
    }

    struct Site {
        var point: Point
        var photos: Int
    }

    struct Answer {
        /// Indices of the sites, in walking order.
        var order: [Int]
        var photos: Int
        var meters: Double
    }

    /// Great-circle metres on a sphere of the mean Earth radius.
    static func meters(_ a: Point, _ b: Point) -> Double {
        let radians = Double.pi / 180
        let phi1 = a.latitude * radians, phi2 = b.latitude * radians
        let dPhi = phi2 - phi1, dLambda = (b.longitude - a.longitude) * radians
        let h = pow(sin(dPhi / 2), 2) + cos(phi1) * cos(phi2) * pow(sin(dLambda / 2), 2)
        return 2 * 6_371_008.8 * asin(min(1, sqrt(h)))
    }

    static func fits(meters: Double, stops: Int, minutes: Int) -> Bool {
        meters / 75 + 3 * Double(stops) <= Double(minutes)
    }

    /// The most photos (then the fewest metres) over every ordered subset that fits.
    static func best(start: Point, sites: [Site], minutes: Int, maxStops: Int) -> Answer {
        var best = Answer(order: [], photos: 0, meters: 0)
        var order: [Int] = []
        var used = [Bool](repeating: false, count: sites.count)
        func extend(from point: Point, meters: Double, photos: Int) {
            if photos > best.photos || (photos == best.photos && meters < best.meters) {
                best = Answer(order: order, photos: photos, meters: meters)
            }
            guard order.count < maxStops else { return }
            for site in sites.indices where !used[site] {
                let walked = meters + Self.meters(point, sites[site].point)
                guard fits(meters: walked, stops: order.count + 1, minutes: minutes) else { continue }
                used[site] = true
                order.append(site)
                extend(from: sites[site].point, meters: walked, photos: photos + sites[site].photos)
                order.removeLast()
                used[site] = false
            }
        }
        extend(from: start, meters: 0, photos: 0)
        return best
    }

    /// The greedy tour: the best photos per minute (walk plus 3) among the sites that
    /// still fit; ties to the nearer, then the lower index.
    static func greedy(start: Point, sites: [Site], minutes: Int, maxStops: Int) -> Answer {
        var answer = Answer(order: [], photos: 0, meters: 0)
        var point = start
        var used = Set<Int>()
        while answer.order.count < maxStops {
            var choice: (site: Int, ratio: Double, leg: Double)?
            for site in sites.indices where !used.contains(site) {
                let leg = meters(point, sites[site].point)
                guard fits(meters: answer.meters + leg, stops: answer.order.count + 1, minutes: minutes) else { continue }
                let ratio = Double(sites[site].photos) / (leg / 75 + 3)
                if let current = choice, ratio < current.ratio || (ratio == current.ratio && leg >= current.leg) { continue }
                choice = (site, ratio, leg)
            }
            guard let choice else { break }
            used.insert(choice.site)
            answer.order.append(choice.site)
            answer.photos += sites[choice.site].photos
            answer.meters += choice.leg
            point = sites[choice.site].point
        }
        return answer
    }

    /// The length of the shortest open path from `start` through every point
    /// (branch and bound over permutations).
    static func shortestOpenPath(start: Point, points: [Point]) -> Double {
        var best = Double.infinity
        var used = [Bool](repeating: false, count: points.count)
        func extend(from point: Point, meters: Double, visited: Int) {
            guard meters < best else { return }
            if visited == points.count {
                best = meters
                return
            }
            for next in points.indices where !used[next] {
                used[next] = true
                extend(from: points[next], meters: meters + Self.meters(point, points[next]), visited: visited + 1)
                used[next] = false
            }
        }
        extend(from: start, meters: 0, visited: 0)
        return best
    }

    /// The nearest-neighbour path's length: always on to the nearest unvisited point.
    static func nearestNeighbourLength(start: Point, points: [Point]) -> Double {
        var remaining = Array(points.indices)
        var point = start
        var total = 0.0
        while !remaining.isEmpty {
            let nearest = remaining.min { meters(point, points[$0]) < meters(point, points[$1]) }!
            total += meters(point, points[nearest])
            point = points[nearest]
            remaining.removeAll { $0 == nearest }
        }
        return total
    }
}
