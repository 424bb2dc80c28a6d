import CPrefetch

/// A static 3-d tree over the locations' unit vectors, for exact k-nearest searches
/// by great-circle distance anywhere on the globe (poles and antimeridian included).
///
/// Chord length between unit vectors is a monotonic function of great-circle
/// distance, so the search ranks by chord, with no trigonometry: a node is pruned when
/// the chord to its bounding box exceeds the bound of `ChordCandidates`, and so is a
/// point. Only the few candidates left get the exact haversine distance, which alone
/// orders the result.
///
/// Leaves hold up to `leafSize` points, stored contiguously in slot order so a leaf
/// scan reads consecutive memory.
struct SpatialIndex: Sendable {
    /// Small enough that a leaf scan is cheap, large enough that the tree stays shallow.
    static let leafSize = 16

    /// A node's slot range and the bounding box of its points' unit vectors, in plain
    /// scalars: 64 bytes, one cache line, where two `SIMD3<Double>` took 80.
    private struct Node {
        var lowerX, lowerY, lowerZ: Double
        var upperX, upperY, upperZ: Double
        var slotStart: Int32
        var slotEnd: Int32
        /// The index in `nodes` of the first of its two children, or -1 for a leaf.
        var firstChild: Int32

        /// Reserves a node's place in `nodes` until its children's places are taken.
        static let placeholder = Node(lower: .zero, upper: .zero, slots: 0..<0)

        init(lower: SIMD3<Double>, upper: SIMD3<Double>, slots: Range<Int32>) {
            (lowerX, lowerY, lowerZ) = (lower.x, lower.y, lower.z)
            (upperX, upperY, upperZ) = (upper.x, upper.y, upper.z)
            slotStart = slots.lowerBound
            slotEnd = slots.upperBound
            firstChild = -1
        }

        /// The squared chord length from `point` to the nearest point of the box.
        @inline(__always)
        func distanceSquared(to point: Point) -> Double {
            let x = Self.gap(lowerX - point.x, point.x - upperX)
            let y = Self.gap(lowerY - point.y, point.y - upperY)
            let z = Self.gap(lowerZ - point.z, point.z - upperZ)
            return x * x + y * y + z * z
        }

        /// The larger of a point's two signed distances past a box's sides on one axis, or
        /// zero within them. Written with strict comparisons, which compile to `maxsd`:
        /// `Swift.max` must keep its NaN and signed-zero order, which costs a compare and
        /// three logic instructions each, and no coordinate here is NaN.
        @inline(__always)
        private static func gap(_ belowLower: Double, _ aboveUpper: Double) -> Double {
            let larger = belowLower > aboveUpper ? belowLower : aboveUpper
            return larger > 0 ? larger : 0
        }
    }

    /// A slot's unit vector in plain scalars and its location: 32 bytes, two to a cache
    /// line, so a leaf scan asks `accepts` about a point without reading another array.
    private struct Point {
        var x, y, z: Double
        var location: Int32

        /// - Parameter location: -1 for a query's point, which stands for no location.
        init(_ vector: SIMD3<Double>, location: Int32 = -1) {
            (x, y, z) = (vector.x, vector.y, vector.z)
            self.location = location
        }

        /// The squared chord length to another unit vector.
        @inline(__always)
        func chordSquared(to other: Point) -> Double {
            let x = self.x - other.x, y = self.y - other.y, z = self.z - other.z
            return x * x + y * y + z * z
        }
    }

    /// What a survivor of the chord test needs for its exact distance, by slot.
    private struct Site {
        var latitude: Double
        var longitude: Double
        var cosLatitude: Double
    }

    /// The root is `nodes[0]`; siblings are adjacent.
    private let nodes: [Node]
    /// The unit vector of each slot.
    private let points: [Point]
    private let sites: [Site]
    /// Levels below the root; a search keeps at most one pending node per level, plus one.
    private let depth: Int

    /// - Parameters: the locations' coordinates in degrees, by location index.
    init(latitudes: [Double], longitudes: [Double]) {
        self.init(latitudes: latitudes, longitudes: longitudes, locations: Array(latitudes.indices))
    }

    /// A tree of some of the locations only: searches find no other.
    /// - Parameters:
    ///   - latitudes, longitudes: every location's coordinates in degrees, by location index.
    ///   - locations: the location indexes the tree holds.
    init(latitudes: [Double], longitudes: [Double], locations: [Int]) {
        let vectors = locations.map { GreatCircle.unitVector(latitude: latitudes[$0], longitude: longitudes[$0]) }
        // A slot first holds a position in `locations`; the build orders the slots.
        var slots = Array(0..<Int32(vectors.count))
        var nodes = [Node.placeholder]
        depth = Self.build(&nodes, &slots, vectors, 0..<vectors.count, into: 0)
        self.nodes = nodes
        points = slots.map { Point(vectors[Int($0)], location: Int32(locations[Int($0)])) }
        sites = slots.map { slot in
            let location = locations[Int(slot)]
            return Site(
                latitude: latitudes[location], longitude: longitudes[location],
                cosLatitude: GreatCircle.cosLatitude(latitudes[location]))
        }
    }

    /// Fills `nodes[index]` with the node of `range` and appends its subtree, splitting
    /// at the median of the axis of greatest spread; returns the subtree's depth below it.
    private static func build(
        _ nodes: inout [Node], _ slots: inout [Int32], _ vectors: [SIMD3<Double>], _ range: Range<Int>, into index: Int
    ) -> Int {
        var lower = SIMD3<Double>(repeating: .infinity), upper = -lower
        for slot in range {
            lower = pointwiseMin(lower, vectors[Int(slots[slot])])
            upper = pointwiseMax(upper, vectors[Int(slots[slot])])
        }
        let slotRange = Int32(range.lowerBound)..<Int32(range.upperBound)
        nodes[index] = Node(lower: lower, upper: upper, slots: slotRange)
        guard range.count > leafSize else { return 0 }

        let spread = upper - lower
        let axis = spread.x >= spread.y && spread.x >= spread.z ? 0 : (spread.y >= spread.z ? 1 : 2)
        slots[range].sort { vectors[Int($0)][axis] < vectors[Int($1)][axis] }
        let middle = (range.lowerBound + range.upperBound) / 2
        let firstChild = nodes.count
        nodes[index].firstChild = Int32(firstChild)
        nodes += [.placeholder, .placeholder]
        let left = build(&nodes, &slots, vectors, range.lowerBound..<middle, into: firstChild)
        let right = build(&nodes, &slots, vectors, middle..<range.upperBound, into: firstChild + 1)
        return 1 + max(left, right)
    }

    /// The `limit` nearest locations to a point within `maxDistance` metres (inclusive)
    /// that `accepts` keeps, ordered by distance then location index; each distance is
    /// `GreatCircle.distance` from the point (as the first) to the location.
    ///
    /// - Parameter accepts: asked only about a location near enough by chord to be a candidate.
    func nearest(
        latitude: Double, longitude: Double, limit: Int, maxDistance: Double, cone: AimedCone? = nil,
        accepts: (Int) -> Bool
    ) -> [(location: Int, distance: Double)] {
        guard limit > 0 else { return [] }
        let query = Point(GreatCircle.unitVector(latitude: latitude, longitude: longitude))
        return withUnsafeTemporaryAllocation(
            of: ChordCandidates.Entry.self, capacity: limit + ChordCandidates.tieRoom
        ) { buffer in
            var candidates = ChordCandidates(
                limit: limit, chordBound: GreatCircle.chordBound(forDistance: maxDistance), buffer: buffer)
            forEachSlot(
                near: query, nearerFirst: true, boundSquared: { candidates.boundSquared },
                reaches: { lower, upper, chordSquared in cone?.mayReach(lower: lower, upper: upper, chordSquared: chordSquared) ?? true }
            ) { slot, location, chordSquared in
                guard accepts(location) else { return }
                candidates.insert(slot: slot, chordSquared: chordSquared)
                // Its site is read for the exact distance after the walk: loaded meanwhile.
                sites.withUnsafeBufferPointer { prefetch_for_reading($0.baseAddress! + slot) }
            }
            return nearest(among: candidates.entries, latitude: latitude, longitude: longitude, limit: limit, maxDistance: maxDistance)
        }
    }

    /// The exact distances of a search's candidates, which alone order the result: the
    /// `limit` nearest within `maxDistance`, by distance then location index.
    private func nearest(
        among candidates: UnsafeBufferPointer<ChordCandidates.Entry>,
        latitude: Double, longitude: Double, limit: Int, maxDistance: Double
    ) -> [(location: Int, distance: Double)] {
        let cosLatitude = GreatCircle.cosLatitude(latitude)
        return Array(unsafeUninitializedCapacity: candidates.count) { found, count in
            sites.withUnsafeBufferPointer { sites in
                for candidate in candidates {
                    let site = sites[candidate.slot]
                    let meters = GreatCircle.distance(
                        latitude1: latitude, longitude1: longitude, cosLatitude1: cosLatitude,
                        latitude2: site.latitude, longitude2: site.longitude, cosLatitude2: site.cosLatitude)
                    guard meters <= maxDistance else { continue }
                    let match = (location: location(atSlot: candidate.slot), distance: meters)
                    // An insertion sort: chord order, which the candidates come in, is nearly always this one.
                    var insertion = count
                    while insertion > 0, Self.precedes(match, found[insertion - 1]) {
                        found[insertion] = found[insertion - 1]
                        insertion -= 1
                    }
                    found[insertion] = match
                    count += 1
                }
            }
            count = min(count, limit)
        }
    }

    /// The result's order: by distance, then by location index.
    @inline(__always)
    private static func precedes(_ a: (location: Int, distance: Double), _ b: (location: Int, distance: Double)) -> Bool {
        a.distance != b.distance ? a.distance < b.distance : a.location < b.location
    }

    /// Every location within `maxDistance` metres (inclusive) that `accepts` keeps, in
    /// location-index order; each distance is `GreatCircle.distance` from the point (as
    /// the first) to the location. A radius search: no ranking, so no bound tightens,
    /// and a node is visited only when its box reaches within the radius's chord.
    ///
    /// - Parameter accepts: asked only about a location near enough by chord to be a candidate.
    func within(
        latitude: Double, longitude: Double, maxDistance: Double, accepts: (Int) -> Bool
    ) -> [(location: Int, distance: Double)] {
        let query = Point(GreatCircle.unitVector(latitude: latitude, longitude: longitude))
        let bound = GreatCircle.chordBound(forDistance: maxDistance)
        let boundSquared = bound * bound
        let cosLatitude = GreatCircle.cosLatitude(latitude)
        var found: [(location: Int, distance: Double)] = []
        forEachSlot(near: query, nearerFirst: false, boundSquared: { boundSquared }, reaches: { _, _, _ in true }) { slot, location, _ in
            guard accepts(location) else { return }
            let site = sites[slot]
            let meters = GreatCircle.distance(
                latitude1: latitude, longitude1: longitude, cosLatitude1: cosLatitude,
                latitude2: site.latitude, longitude2: site.longitude, cosLatitude2: site.cosLatitude)
            if meters <= maxDistance { found.append((location, meters)) }
        }
        found.sort { $0.location < $1.location }
        return found
    }

    /// The location whose point is in `slot`.
    private func location(atSlot slot: Int) -> Int {
        Int(points[slot].location)
    }

    /// The one tree walk of both searches: calls `visit` with each slot whose point lies
    /// within `boundSquared()` (a squared chord) of `query`, with its location and squared chord,
    /// descending only into nodes whose box lies within it. The bound is read anew at
    /// every node and point, so a k-nearest search may tighten it from `visit`.
    ///
    /// - Parameter nearerFirst: search the nearer child of a node first, so that a
    ///   tightening bound prunes the farther one sooner.
    @inline(__always)
    private func forEachSlot(
        near query: Point, nearerFirst: Bool, boundSquared: () -> Double,
        reaches: (_ lower: SIMD3<Double>, _ upper: SIMD3<Double>, _ chordSquared: Double) -> Bool,
        _ visit: (_ slot: Int, _ location: Int, _ chordSquared: Double) -> Void
    ) {
        nodes.withUnsafeBufferPointer { nodes in
            points.withUnsafeBufferPointer { points in
                // The nodes still to search, as a stack, each with its box's squared chord to the
                // query, computed once when it is pushed and checked again when it is popped.
                withUnsafeTemporaryAllocation(of: Pending.self, capacity: depth + 1) { pending in
                    pending[0] = Pending(node: 0, distanceSquared: nodes[0].distanceSquared(to: query))
                    var pendingCount = 1
                    while pendingCount > 0 {
                        pendingCount -= 1
                        let next = pending[pendingCount]
                        guard next.distanceSquared <= boundSquared() else { continue }
                        let node = nodes[Int(next.node)]
                        guard reaches(
                            SIMD3(node.lowerX, node.lowerY, node.lowerZ), SIMD3(node.upperX, node.upperY, node.upperZ),
                            next.distanceSquared)
                        else { continue }
                        if node.firstChild >= 0 {
                            let first = nodes[Int(node.firstChild)], second = nodes[Int(node.firstChild) + 1]
                            Self.prefetchPoints(of: first, in: points)
                            Self.prefetchPoints(of: second, in: points)
                            var near = Pending(node: node.firstChild, distanceSquared: first.distanceSquared(to: query))
                            var far = Pending(node: node.firstChild + 1, distanceSquared: second.distanceSquared(to: query))
                            if nearerFirst, far.distanceSquared < near.distanceSquared { swap(&near, &far) }
                            // The near one on top, popped first.
                            pending[pendingCount] = far
                            pending[pendingCount + 1] = near
                            pendingCount += 2
                            continue
                        }
                        for slot in Int(node.slotStart)..<Int(node.slotEnd) {
                            let point = points[slot]
                            let chordSquared = point.chordSquared(to: query)
                            guard chordSquared <= boundSquared() else { continue }
                            visit(slot, Int(point.location), chordSquared)
                        }
                    }
                }
            }
        }
    }

    /// Starts loading a leaf's points into the cache when its node is pushed, so that
    /// scanning it later waits for memory once, not once per cache line; the index
    /// does not fit in a core's cache, and the scans were waiting on it.
    @inline(__always)
    private static func prefetchPoints(of node: Node, in points: UnsafeBufferPointer<Point>) {
        guard node.firstChild < 0 else { return }
        let start = UnsafeRawPointer(points.baseAddress! + Int(node.slotStart))
        let bytes = Int(node.slotEnd - node.slotStart) * MemoryLayout<Point>.stride
        for offset in stride(from: 0, to: bytes, by: 64) { prefetch_for_reading(start + offset) }
    }

    /// A node waiting in `forEachSlot`'s stack.
    private struct Pending {
        var node: Int32
        var distanceSquared: Double
    }
}
