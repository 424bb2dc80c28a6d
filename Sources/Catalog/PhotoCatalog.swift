import CPrefetch

/// One generation of the photo catalog in memory, immutable, with its spatial index: the
/// shipped catalog with the accepted corrections laid over it
/// (`init(_:corrections:dataVersion:)`). Queries never touch a database.
///
/// `Sendable`: every stored property is an immutable value.
public final class PhotoCatalog: Sendable {
    /// All locations, ordered by `locationID`, so index order breaks distance ties.
    public let locations: [CatalogLocation]
    /// All photos, each location's photos contiguous and in source-file order.
    public let photos: [CatalogPhoto]
    /// Changes whenever the source data or the corrections do: a strong validator for ETags.
    public let dataVersion: String
    /// What this generation was made from.
    public let shipped: ShippedCatalog
    /// Each photo's index in `shipped.photos`.
    private let shippedPhotoIndices: [Int32]
    /// The five boroughs in `Borough.allCases` order.
    public let boroughSummaries: [BoroughSummary]
    /// The photos' subject topics, numbered.
    public let topicIndex: TopicIndex

    /// Per-location fields the queries read, kept apart from `locations` so the hot
    /// loops do not copy (and retain the strings of) whole `CatalogLocation` values.
    private let latitudes: [Double]
    private let longitudes: [Double]
    /// Each location's point as a unit vector, for the "what am I facing" cone.
    private let unitVectors: [SIMD3<Double>]
    private let boroughs: [Borough?]
    private let photoRanges: [Range<Int>]
    private let photoIndexByID: [String: Int]
    private let locationIndexByID: [String: Int]
    private let index: SpatialIndex
    /// Per topic number, a tree of only the locations with that topic: a topic-filtered
    /// `/nearby` searches it instead of `index`, so it never walks the many nearer
    /// locations without the topic (a common topic is on one location in ten).
    private let topicSpatialIndexes: [SpatialIndex]
    /// The locations by latitude strip and longitude, for region queries.
    private let regionIndex: RegionIndex

    /// - Parameters:
    ///   - locations: ordered by `locationID`; their `photos` ranges index `photos`.
    ///   - photos: in source order; `locationIndex` indexes `locations`.
    ///   - topicIndex: the subject topics of `photos`.
    ///   - shippedPhotoIndices: each photo's index in `shipped.photos`.
    init(
        locations: [CatalogLocation], photos: [CatalogPhoto], topicIndex: TopicIndex, dataVersion: String,
        shipped: ShippedCatalog, shippedPhotoIndices: [Int32]
    ) {
        self.locations = locations
        self.photos = photos
        self.dataVersion = dataVersion
        self.shipped = shipped
        self.shippedPhotoIndices = shippedPhotoIndices
        self.topicIndex = topicIndex
        latitudes = locations.map(\.latitude)
        longitudes = locations.map(\.longitude)
        unitVectors = locations.map { GreatCircle.unitVector(latitude: $0.latitude, longitude: $0.longitude) }
        boroughs = locations.map(\.borough)
        photoRanges = locations.map(\.photos)

        var photoIndexByID: [String: Int] = [:]
        photoIndexByID.reserveCapacity(photos.count)
        for offset in photos.indices { photoIndexByID[photos[offset].photoID] = offset }
        self.photoIndexByID = photoIndexByID
        locationIndexByID = Dictionary(uniqueKeysWithValues: locations.indices.map { (locations[$0].locationID, $0) })

        index = SpatialIndex(latitudes: latitudes, longitudes: longitudes)
        let everyLatitude = latitudes, everyLongitude = longitudes
        topicSpatialIndexes = topicIndex.locationsByTopic().map { locations in
            SpatialIndex(latitudes: everyLatitude, longitudes: everyLongitude, locations: locations)
        }
        regionIndex = RegionIndex(sites: locations.indices.map { location in
            RegionIndex.Site(
                latitude: locations[location].latitude, longitude: locations[location].longitude,
                location: Int32(location), firstPhoto: Int32(locations[location].photos.lowerBound),
                photoCount: Int32(locations[location].photos.count), borough: locations[location].borough)
        })
        boroughSummaries = Self.summaries(locations)
    }

    /// The index in `photos` of a photo ID, or nil.
    public func photoIndex(photoID: String) -> Int? {
        photoIndexByID[photoID]
    }

    /// The index in `shipped.photos` of a photo (an index in `photos`).
    public func shippedPhotoIndex(_ photo: Int) -> Int {
        Int(shippedPhotoIndices[photo])
    }

    /// The accepted clockwise turn (0, 90, 180 or 270) that makes the image at a photo's
    /// `photoURL` upright, from this generation's corrections; nil for an unknown photo ID.
    /// What the image routes turn the source's bytes by.
    public func acceptedRotation(photoID: String) -> Int? {
        photoIndex(photoID: photoID).map { photos[$0].acceptedRotation }
    }

    /// What the search index holds as a photo's place in this generation (`SearchIndex.placeColumn`).
    public func searchedPlace(ofPhoto photo: Int) -> String {
        SearchIndex.placeColumn(photo: photos[photo].intersection, location: locations[photos[photo].locationIndex].intersection)
    }

    /// The index in `locations` of a location ID spelled exactly as the catalog spells
    /// it (byte for byte: `String`'s `==` would also take a canonically equivalent
    /// spelling), or nil.
    public func locationIndex(locationID: String) -> Int? {
        guard let index = locationIndexByID[locationID], locations[index].locationID.utf8.elementsEqual(locationID.utf8)
        else { return nil }
        return index
    }

    /// The indices in `photos` of a location's photos, in source order
    /// (the same as `locations[location].photos`, without copying the location).
    public func photoRange(location: Int) -> Range<Int> {
        photoRanges[location]
    }

    /// Whether the photo passes the filter's photo-level parts: one of its years in the
    /// year range, and the topic (the borough is not checked).
    public func photo(_ index: Int, matches filter: PhotoFilter) -> Bool {
        if let topic = filter.topic, !topicIndex.photo(index, has: topic) { return false }
        return !filter.filtersYears || filter.matches(years: photos[index].yearNumbers)
    }

    /// How many photos of a location pass the filter's photo-level parts (the borough is not checked).
    public func photoCount(location: Int, filter: PhotoFilter) -> Int {
        let range = photoRanges[location]
        guard filter.filtersPhotos else { return range.count }
        if let topic = filter.topic, !filter.filtersYears { return topicIndex.photoCount(location: location, topic: topic) }
        var count = 0
        for photo in range where self.photo(photo, matches: filter) { count += 1 }
        return count
    }

    /// The nearest locations with at least one photo matching the filter (and inside the
    /// cone, when the query has one), nearest first, ties by `locationID`; exact for any
    /// point on the globe.
    ///
    /// A cone is one more test of the candidates the k-d tree yields nearest first: the
    /// search widens until `limit` locations pass or the radius is exhausted. In the worst
    /// case (a narrow cone facing away from every location) that would visit every location
    /// within the radius; but the tree also skips every node whose box lies wholly outside
    /// the cone (and beyond 15 m), so the walk follows the cone, and each location left to
    /// test costs a few multiplications (`AimedCone`).
    public func nearby(_ query: NearbyQuery) -> [NearbyMatch] {
        let filter = query.filter
        let cone = query.cone.map { AimedCone($0, latitude: query.latitude, longitude: query.longitude) }
        let found = spatialIndex(for: filter).nearest(
            latitude: query.latitude, longitude: query.longitude, limit: query.limit, maxDistance: query.radius ?? .infinity,
            cone: cone
        ) { location in
            if let borough = filter.borough, boroughs[location] != borough { return false }
            if let cone, !cone.contains(unitVectors[location], latitude: latitudes[location], longitude: longitudes[location]) {
                return false
            }
            guard filter.filtersYears else {
                // A candidate's photo count is read if it is found: loaded while the search goes on.
                photoRanges.withUnsafeBufferPointer { prefetch_for_reading($0.baseAddress! + location) }
                return true
            }
            return photoCount(location: location, filter: filter) > 0
        }
        return found.map { match in
            NearbyMatch(
                location: match.location, distance: match.distance,
                photoCount: photoCount(location: match.location, filter: filter),
                bearing: cone?.bearing(
                    to: unitVectors[match.location], latitude: latitudes[match.location], longitude: longitudes[match.location]))
        }
    }

    /// The tree a search with `filter` walks: with a topic, the topic's own.
    private func spatialIndex(for filter: PhotoFilter) -> SpatialIndex {
        filter.topic.map { topicSpatialIndexes[$0] } ?? index
    }

    /// Every location within `radius` metres of a point (inclusive) with at least
    /// `minPhotos` photos matching the filter, in location order (so by `locationID`).
    /// A radius search of the spatial index: only the locations near the point are read.
    public func locations(
        withinMeters radius: Double, latitude: Double, longitude: Double, filter: PhotoFilter, minPhotos: Int
    ) -> [NearbyMatch] {
        let found = spatialIndex(for: filter).within(latitude: latitude, longitude: longitude, maxDistance: radius) { location in
            if let borough = filter.borough, boroughs[location] != borough { return false }
            // All its photos are an upper bound of the matching ones: most locations fail here, uncounted.
            guard photoRanges[location].count >= minPhotos else { return false }
            return photoCount(location: location, filter: filter) >= minPhotos
        }
        return found.map { match in
            NearbyMatch(
                location: match.location, distance: match.distance, photoCount: photoCount(location: match.location, filter: filter),
                bearing: nil)
        }
    }

    /// The nearest location within `radius` metres of a point (inclusive) that `accepts`
    /// keeps, ties by `locationID`; nil when there is none. A radius query over the
    /// spatial index: `accepts` is asked only about locations near enough to compete,
    /// so a caller can skip locations it has used up without scanning the catalog.
    public func nearestLocation(
        latitude: Double, longitude: Double, within radius: Double, where accepts: (Int) -> Bool
    ) -> (location: Int, distance: Double)? {
        index.nearest(latitude: latitude, longitude: longitude, limit: 1, maxDistance: radius, accepts: accepts).first
    }

    /// The locations inside the box with at least one photo matching the filter,
    /// by matching photo count descending, then `locationID`.
    public func region(_ query: RegionQuery) -> RegionResult {
        // Each match as one sort key, the photo count (descending) above the location,
        // beside its first photo: sorting plain integers costs a fraction of comparing
        // matches field by field, and no two locations tie.
        var found: [(key: UInt64, firstPhoto: Int32)] = []
        found.reserveCapacity(Self.typicalRegionMatches)
        let filter = query.filter
        regionIndex.forEachSite(south: query.south, west: query.west, north: query.north, east: query.east) { site in
            if let borough = filter.borough, site.borough != borough { return }
            guard filter.filtersPhotos else {
                found.append((Self.regionKey(location: site.location, photoCount: Int(site.photoCount)), site.firstPhoto))
                return
            }
            if let topic = filter.topic, !topicIndex.location(Int(site.location), has: topic) { return }
            var count = 0
            var first = -1
            for photo in photoRanges[Int(site.location)] where self.photo(photo, matches: filter) {
                if first < 0 { first = photo }
                count += 1
            }
            if count > 0 { found.append((Self.regionKey(location: site.location, photoCount: count), Int32(first))) }
        }
        found.sort { $0.key < $1.key }
        let matches = found.prefix(query.limit).map { match in
            RegionMatch(
                location: Int(UInt32(truncatingIfNeeded: match.key)), photoCount: Int(UInt32.max - UInt32(match.key >> 32)),
                firstPhoto: Int(match.firstPhoto))
        }
        return RegionResult(matches: matches, total: found.count)
    }

    /// A region match's sort key: ascending keys order by photo count descending, then location.
    @inline(__always)
    private static func regionKey(location: Int32, photoCount: Int) -> UInt64 {
        UInt64(UInt32.max - UInt32(photoCount)) << 32 | UInt64(UInt32(location))
    }

    /// Enough for most boxes of about a kilometre, so their matches are stored without growing.
    private static let typicalRegionMatches = 64

    private static func summaries(_ locations: [CatalogLocation]) -> [BoroughSummary] {
        Borough.allCases.map { borough in
            let inside = locations.filter { $0.borough == borough }
            let bbox = inside.first.map { first in
                inside.reduce(
                    BoroughSummary.BoundingBox(
                        south: first.latitude, west: first.longitude, north: first.latitude, east: first.longitude)
                ) { box, location in
                    BoroughSummary.BoundingBox(
                        south: min(box.south, location.latitude), west: min(box.west, location.longitude),
                        north: max(box.north, location.latitude), east: max(box.east, location.longitude))
                }
            }
            return BoroughSummary(
                borough: borough, locationCount: inside.count, photoCount: inside.reduce(0) { $0 + $1.photos.count }, bbox: bbox)
        }
    }
}
