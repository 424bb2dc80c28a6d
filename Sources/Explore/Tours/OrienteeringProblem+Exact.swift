extension OrienteeringProblem {
    /// The best order through some of `reachable` (at most `exactLimit` points):
    /// dynamic programming over subsets. For each set of sites and each last site, the
    /// shortest walk from the start visiting exactly that set and ending there; the
    /// answer is the set with the most photos (then the shortest walk) whose walk fits.
    ///
    /// A walk that does not fit the budget cannot be extended into one that does
    /// (legs and stops only add), so such states are dropped at once.
    func exactOrder(_ reachable: [Int]) -> [Int] {
        let count = reachable.count
        guard count > 0 else { return [] }
        precondition(count <= Self.exactLimit, "too many sites for the exact search")
        // Distances between the start (0) and the reachable sites (1...count).
        let local = [0] + reachable
        var legs = [Double](repeating: 0, count: (count + 1) * (count + 1))
        for from in 0...count {
            for to in 0...count where to != from {
                legs[from * (count + 1) + to] = points[local[from]].meters(to: points[local[to]])
            }
        }
        let states = 1 << count
        var walk = [Double](repeating: .infinity, count: states * count)
        var previous = [Int8](repeating: -1, count: states * count)
        var bestState = -1
        var bestPhotos = 0
        var bestWalk = 0.0
        for set in 1..<states {
            let stops = set.nonzeroBitCount
            guard stops <= budget.maxStops else { continue }
            var setPhotos = 0
            for site in 0..<count where set & (1 << site) != 0 { setPhotos += photos[reachable[site]] }
            for last in 0..<count where set & (1 << last) != 0 {
                let rest = set & ~(1 << last)
                var shortest = Double.infinity
                var before: Int8 = -1
                if rest == 0 {
                    shortest = legs[last + 1]
                } else {
                    for site in 0..<count where rest & (1 << site) != 0 {
                        let length = walk[rest * count + site] + legs[(site + 1) * (count + 1) + last + 1]
                        if length < shortest {
                            shortest = length
                            before = Int8(site)
                        }
                    }
                }
                guard shortest.isFinite, budget.fits(meters: shortest, stops: stops) else { continue }
                walk[set * count + last] = shortest
                previous[set * count + last] = before
                if setPhotos > bestPhotos || (setPhotos == bestPhotos && shortest < bestWalk) {
                    bestState = set * count + last
                    bestPhotos = setPhotos
                    bestWalk = shortest
                }
            }
        }
        guard bestState >= 0 else { return [] }
        var order: [Int] = []
        var set = bestState / count
        var last = bestState % count
        while true {
            order.append(reachable[last])
            let before = Int(previous[set * count + last])
            set &= ~(1 << last)
            guard before >= 0 else { break }
            last = before
        }
        return order.reversed()
    }
}
