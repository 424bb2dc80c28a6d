import Foundation
import Catalog
import TestSupport

extension ClusterOracle.Query {
    /// The box around the five boroughs.
    static let city = (south: 40.49, west: -74.26, north: 40.92, east: -73.69)

    /// A random query: the whole city, boxes of every size inside it, a box around
    /// one location (down to its exact point), boxes across the antimeridian that
    /// reach into the city or not, the whole world, empty far-away boxes; any zoom,
    /// limit and filter.
    static func random(using generator: inout SeededGenerator, catalog: PhotoCatalog) -> Self {
        var box: (south: Double, west: Double, north: Double, east: Double)
        switch Int.random(in: 0..<8, using: &generator) {
        case 0:
            box = city
        case 1, 2:
            let height = pow(10, Double.random(in: -4...(-0.4), using: &generator))
            let width = pow(10, Double.random(in: -4...(-0.3), using: &generator))
            let south = Double.random(in: city.south...city.north, using: &generator) - height / 2
            let west = Double.random(in: city.west...city.east, using: &generator) - width / 2
            box = (south, west, south + height, west + width)
        case 3:
            let location = catalog.locations.randomElement(using: &generator)!
            let margin = Bool.random(using: &generator) ? 0 : Double.random(in: 0...2e-5, using: &generator)
            box = (location.latitude - margin, location.longitude - margin, location.latitude + margin, location.longitude + margin)
        case 4:
            // Across the antimeridian: everything east of `west`, and west of `east`.
            let east = Double.random(in: -180...(city.east + 0.1), using: &generator)
            let west = Double.random(in: max(east + 1e-6, city.west - 0.1)...180, using: &generator)
            let south = Double.random(in: -90...city.north, using: &generator)
            box = (south, west, Double.random(in: max(south, city.south)...90, using: &generator), east)
        case 5:
            box = [(-90, -180, 90, 180), (-90, 180, 90, -180), (40.6, 179.5, 40.8, -73.95), (-90, -73.9, 90, -73.95)]
                .randomElement(using: &generator)!
        case 6:
            let south = Double.random(in: -90...80, using: &generator)
            let west = Double.random(in: -180...170, using: &generator)
            box = (south, west, south + Double.random(in: 0...10, using: &generator), west + Double.random(in: 0...10, using: &generator))
        default:
            // A map view of the city at some zoom: the box spans a few hundred pixels.
            let zoomSpan = 360 / pow(2, Double.random(in: 9...17, using: &generator))
            let south = Double.random(in: city.south...city.north, using: &generator)
            let west = Double.random(in: city.west...city.east, using: &generator)
            box = (south, west, min(south + zoomSpan, 90), min(west + zoomSpan * 1.5, 180))
        }
        let limit = [500, 500, 1, 7, 50, 5000].randomElement(using: &generator)!
        var fromYear: Int?
        var toYear: Int?
        var borough: Borough?
        if Int.random(in: 0..<3, using: &generator) == 0 {
            fromYear = Bool.random(using: &generator) ? Int.random(in: 1850...1990, using: &generator) : nil
            toYear = Bool.random(using: &generator) ? max(fromYear ?? 1850, Int.random(in: 1870...2000, using: &generator)) : nil
        }
        if Int.random(in: 0..<3, using: &generator) == 0 {
            borough = Borough.allCases.randomElement(using: &generator)
        }
        var topic: Int?
        if Int.random(in: 0..<4, using: &generator) == 0 {
            let count = (try! TopicOracle.load()).topics.count
            topic = Bool.random(using: &generator) ? Int.random(in: 0..<10, using: &generator) : Int.random(in: 0..<count, using: &generator)
        }
        return Self(
            south: box.south, west: max(box.west, -180), north: box.north, east: min(box.east, 180),
            zoom: Int.random(in: 0...22, using: &generator), limit: limit, fromYear: fromYear, toYear: toYear,
            borough: borough, topic: topic)
    }
}
