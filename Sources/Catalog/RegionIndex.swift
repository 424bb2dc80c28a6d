/// The locations for box queries (`/region`), in latitude strips, each strip's sorted
/// by longitude: a box reads only the strips it crosses and, in each, only the run of
/// longitudes inside it, instead of every location of its latitude band. The sites are
/// packed side by side, so a run is consecutive memory.
struct RegionIndex: Sendable {
    /// What a box query reads of a location.
    struct Site: Sendable {
        var latitude: Double
        var longitude: Double
        var location: Int32
        /// The location's first photo and how many it has, for queries without a year filter.
        var firstPhoto: Int32
        var photoCount: Int32
        var borough: Borough?
    }

    /// About 1.1 km: a strip is about as high as a typical box, so a box crosses two or three.
    static let stripHeight = 0.01

    /// By strip, then longitude.
    private let sites: [Site]
    /// Where each strip starts in `sites`, and after the last one its end.
    private let stripStarts: [Int32]
    /// The southern edge of strip 0: the southernmost site's latitude.
    private let origin: Double

    init(sites unordered: [Site]) {
        let origin = unordered.map(\.latitude).min() ?? 0
        self.origin = origin
        let strips = unordered.map(\.latitude).max().map { Self.strip(of: $0, origin: origin) + 1 } ?? 0
        sites = unordered.sorted {
            let (first, second) = (Self.strip(of: $0.latitude, origin: origin), Self.strip(of: $1.latitude, origin: origin))
            if first != second { return first < second }
            return $0.longitude != $1.longitude ? $0.longitude < $1.longitude : $0.location < $1.location
        }
        var stripStarts = [Int32](repeating: 0, count: strips + 1)
        for site in sites { stripStarts[Self.strip(of: site.latitude, origin: origin) + 1] += 1 }
        for strip in stripStarts.indices.dropFirst() { stripStarts[strip] += stripStarts[strip - 1] }
        self.stripStarts = stripStarts
    }

    /// Calls `body` with every site inside the box (edges inclusive; `west > east`
    /// crosses the antimeridian), in no particular order.
    func forEachSite(south: Double, west: Double, north: Double, east: Double, _ body: (Site) -> Void) {
        let strips = stripStarts.count - 1
        guard strips > 0, south <= north else { return }
        let first = max(Self.strip(of: south, origin: origin, clampedTo: strips), 0)
        let last = min(Self.strip(of: north, origin: origin, clampedTo: strips), strips - 1)
        guard first <= last else { return }
        sites.withUnsafeBufferPointer { sites in
            for strip in first...last {
                let start = Int(stripStarts[strip]), end = Int(stripStarts[strip + 1])
                var slot = Self.firstSlot(atOrEastOf: west, in: sites, start..<end)
                // Across the antimeridian: west of the strip's end, then from its start up to `east`.
                let wraps = west > east
                while slot < end, wraps || sites[slot].longitude <= east {
                    let site = sites[slot]
                    if site.latitude >= south, site.latitude <= north { body(site) }
                    slot += 1
                }
                guard wraps else { continue }
                slot = start
                while slot < end, sites[slot].longitude <= east {
                    let site = sites[slot]
                    if site.latitude >= south, site.latitude <= north { body(site) }
                    slot += 1
                }
            }
        }
    }

    /// The strip of a latitude: monotonic in the latitude, so a site at or north of a
    /// box's south edge is never in a strip before the edge's.
    private static func strip(of latitude: Double, origin: Double) -> Int {
        Int(((latitude - origin) / stripHeight).rounded(.down))
    }

    /// `strip(of:origin:)` kept within -1...strips, for a query's edges far from every site.
    private static func strip(of latitude: Double, origin: Double, clampedTo strips: Int) -> Int {
        Int(min(max(((latitude - origin) / stripHeight).rounded(.down), -1), Double(strips)))
    }

    /// The first slot in `range` whose longitude is `>= longitude`, or `range.upperBound`.
    private static func firstSlot(atOrEastOf longitude: Double, in sites: UnsafeBufferPointer<Site>, _ range: Range<Int>) -> Int {
        var low = range.lowerBound, high = range.upperBound
        while low < high {
            let mid = (low + high) / 2
            if sites[mid].longitude < longitude { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
