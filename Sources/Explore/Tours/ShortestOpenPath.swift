/// The order of the shortest open path from a start through every one of some points
/// (the favorites tour): exact (Held–Karp) for at most `exactLimit` points, otherwise
/// the nearest-neighbour order shortened by 2-opt and by moving single stops, which
/// is never longer than the nearest-neighbour order.
///
/// Lengths are haversine metres, each leg computed once; a change is kept only when
/// the walk, added up leg by leg in walking order as `Tour` does, gets shorter.
struct ShortestOpenPath {
    /// 2^n·n² steps: about 40 000 at 9.
    static let exactLimit = 9

    private let count: Int
    /// `legs[i * count + j]`: metres between points `i` and `j`; point 0 is the start.
    private let legs: [Double]

    init(_ points: [Waypoint]) {
        count = points.count
        var legs = [Double](repeating: 0, count: count * count)
        for from in 0..<count {
            for to in (from + 1)..<count {
                let meters = points[from].meters(to: points[to])
                legs[from * count + to] = meters
                legs[to * count + from] = meters
            }
        }
        self.legs = legs
    }

    /// Every point but the start (0), in walking order.
    func order() -> [Int] {
        guard count > 2 else { return Array(1..<max(count, 1)) }
        return count - 1 <= Self.exactLimit ? heldKarp() : shortened(nearestNeighbour())
    }

    /// The walk of `order` from the start, added up leg by leg.
    func meters(_ order: [Int]) -> Double {
        var previous = 0
        var total = 0.0
        for point in order {
            total += legs[previous * count + point]
            previous = point
        }
        return total
    }

    /// Dynamic programming over subsets: for each set of points and each last point,
    /// the shortest walk from the start through exactly that set, ending there.
    private func heldKarp() -> [Int] {
        let sites = count - 1
        let states = 1 << sites
        var walk = [Double](repeating: .infinity, count: states * sites)
        var previous = [Int8](repeating: -1, count: states * sites)
        for set in 1..<states {
            for last in 0..<sites where set & (1 << last) != 0 {
                let rest = set & ~(1 << last)
                if rest == 0 {
                    walk[set * sites + last] = legs[last + 1]
                    continue
                }
                for site in 0..<sites where rest & (1 << site) != 0 {
                    let length = walk[rest * sites + site] + legs[(site + 1) * count + last + 1]
                    if length < walk[set * sites + last] {
                        walk[set * sites + last] = length
                        previous[set * sites + last] = Int8(site)
                    }
                }
            }
        }
        let full = states - 1
        var last = (0..<sites).min { walk[full * sites + $0] < walk[full * sites + $1] } ?? 0
        var set = full
        var order: [Int] = []
        while true {
            order.append(last + 1)
            let before = Int(previous[set * sites + last])
            set &= ~(1 << last)
            guard before >= 0 else { break }
            last = before
        }
        return order.reversed()
    }

    /// From the start, always on to the nearest point not yet visited (ties: the lower index).
    private func nearestNeighbour() -> [Int] {
        var visited = [Bool](repeating: false, count: count)
        var order: [Int] = []
        var current = 0
        for _ in 1..<count {
            var next = -1
            for point in 1..<count where !visited[point] {
                if next < 0 || legs[current * count + point] < legs[current * count + next] { next = point }
            }
            visited[next] = true
            order.append(next)
            current = next
        }
        return order
    }

    /// `order` after 2-opt reversals and single-stop moves, until neither shortens it.
    /// A change is tried when its change of legs says it is shorter, and kept when the
    /// whole walk, added up again, is.
    private func shortened(_ start: [Int]) -> [Int] {
        var order = start
        var length = meters(order)
        func keep(_ candidate: [Int]) -> Bool {
            let candidateLength = meters(candidate)
            guard candidateLength < length else { return false }
            order = candidate
            length = candidateLength
            return true
        }
        var improved = true
        while improved {
            improved = false
            let path = [0] + order
            let stops = order.count
            // Reversing path[first...last].
            for first in 1..<stops {
                for last in (first + 1)...stops {
                    var delta = leg(path[first - 1], path[last]) - leg(path[first - 1], path[first])
                    if last < stops { delta += leg(path[first], path[last + 1]) - leg(path[last], path[last + 1]) }
                    guard delta < 0 else { continue }
                    var candidate = order
                    candidate[(first - 1)..<last].reverse()
                    if keep(candidate) {
                        improved = true
                        break
                    }
                }
                if improved { break }
            }
            if improved { continue }
            // Moving path[moved] to after path[place] (both of the path without it).
            for moved in 1...stops {
                var candidate = order
                let point = candidate.remove(at: moved - 1)
                let rest = [0] + candidate
                var saved = leg(path[moved - 1], point)
                if moved < stops { saved += leg(point, path[moved + 1]) - leg(path[moved - 1], path[moved + 1]) }
                for place in 0..<rest.count {
                    var added = leg(rest[place], point)
                    if place + 1 < rest.count { added += leg(point, rest[place + 1]) - leg(rest[place], rest[place + 1]) }
                    guard added < saved else { continue }
                    var moving = candidate
                    moving.insert(point, at: place)
                    if keep(moving) {
                        improved = true
                        break
                    }
                }
                if improved { break }
            }
        }
        return order
    }

    private func leg(_ from: Int, _ to: Int) -> Double {
        legs[from * count + to]
    }
}
