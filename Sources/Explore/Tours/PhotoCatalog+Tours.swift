import Catalog

extension PhotoCatalog {
    /// The most favorite locations a favorites tour goes through: the nearest to the start.
    public static let favoritesTourLimit = 50

    /// The tour problem of a query: the locations within reach of the start (a radius
    /// search of the spatial index) with at least `minPhotos` matching photos, by
    /// `locationID`, each worth its matching photos.
    public func tourProblem(_ query: TourQuery) -> OrienteeringProblem {
        let found = locations(
            withinMeters: query.budget.reachMeters, latitude: query.latitude, longitude: query.longitude,
            filter: query.filter, minPhotos: query.minPhotos)
        let sites = found.map { match in
            TourSite(
                location: match.location, latitude: locations[match.location].latitude,
                longitude: locations[match.location].longitude, photoCount: match.photoCount)
        }
        return OrienteeringProblem(latitude: query.latitude, longitude: query.longitude, sites: sites, budget: query.budget)
    }

    /// The shortest open path from a point through `locations` (catalog location
    /// indices, without repeats), or through the `favoritesTourLimit` nearest of them
    /// (ties: the smaller `locationID`). Each stop is worth all its location's photos.
    public func favoritesTour(latitude: Double, longitude: Double, locations chosen: [Int]) -> Tour {
        let start = Waypoint(latitude: latitude, longitude: longitude)
        var nearest = chosen.map { location in
            (location: location, meters: start.meters(to: Waypoint(latitude: locations[location].latitude, longitude: locations[location].longitude)))
        }
        nearest.sort { $0.meters != $1.meters ? $0.meters < $1.meters : $0.location < $1.location }
        let sites = nearest.prefix(Self.favoritesTourLimit).map { match in
            TourSite(
                location: match.location, latitude: locations[match.location].latitude,
                longitude: locations[match.location].longitude, photoCount: photoRange(location: match.location).count)
        }
        let points = [start] + sites.map { Waypoint(latitude: $0.latitude, longitude: $0.longitude) }
        return Tour(points, sites: sites, order: ShortestOpenPath(points).order())
    }
}
