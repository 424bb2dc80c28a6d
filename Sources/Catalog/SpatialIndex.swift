/// A static 3-d tree over the locations' unit vectors, for exact k-nearest searches
/// by great-circle distance anywhere on the globe (poles and antimeridian included).
///
/// Chord length between unit vectors is a monotonic function of great-circle
/// distance, so a splitting plane's distance bounds the great-circle distance of
/// everything behind it; candidates are then ranked by exact haversine distance.
struct SpatialIndex: Sendable {
    /// Location index stored at each slot; the tree is implicit: the node of slot range
    /// `lo..<hi` is at `(lo + hi) / 2`, its children cover `lo..<mid` and `mid+1..<hi`.
    private let locations: [Int32]
    private let points: [SIMD3<Double>]
    /// The splitting axis (0, 1, 2) of each node.
    private let axes: [UInt8]

    init(vectors: [SIMD3<Double>]) {
        var slots = Array(0..<Int32(vectors.count))
        var axes = [UInt8](repeating: 0, count: vectors.count)
        Self.build(&slots, &axes, vectors, 0, vectors.count)
        locations = slots
        points = slots.map { vectors[Int($0)] }
        self.axes = axes
    }

    private static func build(_ slots: inout [Int32], _ axes: inout [UInt8], _ vectors: [SIMD3<Double>], _ lo: Int, _ hi: Int) {
        guard hi - lo > 1 else { return }
        var minimum = vectors[Int(slots[lo])], maximum = minimum
        for slot in lo..<hi {
            minimum = pointwiseMin(minimum, vectors[Int(slots[slot])])
            maximum = pointwiseMax(maximum, vectors[Int(slots[slot])])
        }
        let spread = maximum - minimum
        let axis = spread.x >= spread.y && spread.x >= spread.z ? 0 : (spread.y >= spread.z ? 1 : 2)
        slots[lo..<hi].sort { vectors[Int($0)][axis] < vectors[Int($1)][axis] }
        let mid = (lo + hi) / 2
        axes[mid] = UInt8(axis)
        build(&slots, &axes, vectors, lo, mid)
        build(&slots, &axes, vectors, mid + 1, hi)
    }

    /// The `limit` nearest locations to `query` within `maxDistance` metres (inclusive),
    /// ordered by distance then location index.
    ///
    /// - Parameter distance: the exact distance to a location, or nil when filters exclude it.
    func nearest(
        to query: SIMD3<Double>, limit: Int, maxDistance: Double, distance: (Int) -> Double?
    ) -> [(location: Int, distance: Double)] {
        guard limit > 0 else { return [] }
        return withoutActuallyEscaping(distance) { distance in
            var search = Search(query: query, limit: limit, bound: maxDistance, distance: distance)
            search.visit(self, 0, locations.count)
            return search.best
        }
    }

    private struct Search {
        let query: SIMD3<Double>
        let limit: Int
        /// Distance a candidate must not exceed: the radius, then the k-th best.
        var bound: Double
        /// A chord length no candidate within `bound` exceeds.
        var chordBound: Double
        let distance: (Int) -> Double?
        var best: [(location: Int, distance: Double)] = []

        init(query: SIMD3<Double>, limit: Int, bound: Double, distance: @escaping (Int) -> Double?) {
            self.query = query
            self.limit = limit
            self.bound = bound
            self.chordBound = GreatCircle.chordBound(forDistance: bound)
            self.distance = distance
            best.reserveCapacity(limit + 1)
        }

        mutating func visit(_ index: SpatialIndex, _ lo: Int, _ hi: Int) {
            guard lo < hi else { return }
            let mid = (lo + hi) / 2
            let point = index.points[mid]
            consider(Int(index.locations[mid]), point)
            guard hi - lo > 1 else { return }
            let offset = query[Int(index.axes[mid])] - point[Int(index.axes[mid])]
            if offset < 0 {
                visit(index, lo, mid)
                if -offset <= chordBound { visit(index, mid + 1, hi) }
            } else {
                visit(index, mid + 1, hi)
                if offset <= chordBound { visit(index, lo, mid) }
            }
        }

        private mutating func consider(_ location: Int, _ point: SIMD3<Double>) {
            let difference = point - query
            guard (difference * difference).sum() <= chordBound * chordBound else { return }
            guard let meters = distance(location), meters <= bound else { return }
            if best.count == limit {
                let last = best[limit - 1]
                guard meters < last.distance || (meters == last.distance && location < last.location) else { return }
            }
            var insertion = best.count
            while insertion > 0,
                best[insertion - 1].distance > meters
                    || (best[insertion - 1].distance == meters && best[insertion - 1].location > location)
            {
                insertion -= 1
            }
            best.insert((location, meters), at: insertion)
            if best.count > limit { best.removeLast() }
            if best.count == limit, best[limit - 1].distance < bound {
                bound = best[limit - 1].distance
                chordBound = GreatCircle.chordBound(forDistance: bound)
            }
        }
    }
}
