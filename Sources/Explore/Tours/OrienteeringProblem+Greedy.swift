extension OrienteeringProblem {
    /// The greedy order (see `greedyTour()`), as indices of `points`.
    ///
    /// The ratio needs each leg's haversine length; a site whose ratio cannot beat the
    /// best so far even over its chord (a lower bound of the leg, shrunk by more than
    /// the rounding of either, relative and absolute) is skipped without it.
    func greedyOrder() -> [Int] {
        var order: [Int] = []
        var visited = [Bool](repeating: false, count: points.count)
        var current = 0
        var walked = 0.0
        while order.count < budget.maxStops {
            var best = -1
            var bestRatio = -Double.infinity
            var bestLeg = Double.infinity
            for point in 1..<points.count where !visited[point] {
                let bound = Self.ratio(photos[point], leg: points[current].chordMeters(to: points[point]) * (1 - 1e-9) - 1e-6)
                guard bound >= bestRatio else { continue }
                let leg = points[current].meters(to: points[point])
                guard budget.fits(meters: walked + leg, stops: order.count + 1) else { continue }
                let ratio = Self.ratio(photos[point], leg: leg)
                if ratio > bestRatio || (ratio == bestRatio && leg < bestLeg) {
                    best = point
                    bestRatio = ratio
                    bestLeg = leg
                }
            }
            guard best > 0 else { break }
            order.append(best)
            visited[best] = true
            walked += bestLeg
            current = best
        }
        return order
    }

    /// Photos per minute spent reaching and seeing a site.
    private static func ratio(_ photos: Int, leg: Double) -> Double {
        Double(photos) / (leg / TourBudget.metersPerMinute + Double(TourBudget.minutesPerStop))
    }
}
