import Catalog

/// The fields of every catalog location that clustering reads, side by side, and
/// how the locations of one cell add up to a cluster.
///
/// `Sendable`: immutable after `init`.
struct ClusterLocations: Sendable {
    let catalog: PhotoCatalog
    private let latitudes: [Double]
    private let longitudes: [Double]
    private let boroughs: [Borough?]

    init(catalog: PhotoCatalog) {
        self.catalog = catalog
        latitudes = catalog.locations.map(\.latitude)
        longitudes = catalog.locations.map(\.longitude)
        boroughs = catalog.locations.map(\.borough)
    }

    var count: Int { latitudes.count }

    /// The cell of every location at `zoom`.
    func cells(zoom: Int) -> [MercatorCell] {
        latitudes.indices.map { MercatorCell(latitude: latitudes[$0], longitude: longitudes[$0], zoom: zoom) }
    }

    /// The cluster of the locations `members` (ascending location indices) that the
    /// query's box and filter keep, or nil when none is kept; without a query, of them all.
    ///
    /// Every cluster, precomputed whole cell or a box's part of one, is summed here in
    /// the same order, so a whole cell found either way is the same to the last bit.
    func cluster(of members: ArraySlice<Int32>, in query: ClusterQuery?) -> Cluster? {
        var locationCount = 0, photoCount = 0
        var latitudeSum = 0.0, longitudeSum = 0.0
        var south = Double.infinity, west = Double.infinity, north = -Double.infinity, east = -Double.infinity
        var representative = -1, representativeCount = 0
        for member in members {
            let location = Int(member)
            let latitude = latitudes[location]
            let longitude = longitudes[location]
            var count = catalog.photoRange(location: location).count
            if let query {
                guard query.contains(latitude: latitude, longitude: longitude) else { continue }
                if let borough = query.filter.borough, boroughs[location] != borough { continue }
                if query.filter.filtersPhotos {
                    count = catalog.photoCount(location: location, filter: query.filter)
                    guard count > 0 else { continue }
                }
            }
            locationCount += 1
            photoCount += count
            latitudeSum += latitude
            longitudeSum += longitude
            south = min(south, latitude)
            west = min(west, longitude)
            north = max(north, latitude)
            east = max(east, longitude)
            // Members ascend, so on a tie the earlier (smaller) locationID stays.
            if count > representativeCount {
                representative = location
                representativeCount = count
            }
        }
        guard locationCount > 0 else { return nil }
        return Cluster(
            latitude: latitudeSum / Double(locationCount), longitude: longitudeSum / Double(locationCount),
            locationCount: locationCount, photoCount: photoCount, south: south, west: west, north: north, east: east,
            representative: representative, thumbnailPhoto: firstPhoto(of: representative, matching: query?.filter))
    }

    /// The first photo of a location, in source order, that the filter (years, topic) keeps.
    /// - Precondition: one does.
    private func firstPhoto(of location: Int, matching filter: PhotoFilter?) -> Int {
        let photos = catalog.photoRange(location: location)
        guard let filter, filter.filtersPhotos else { return photos.lowerBound }
        return photos.first { catalog.photo($0, matches: filter) }!
    }
}
