import Catalog
import Explore
import TestSupport
import Testing

/// `/tours` planning over the real catalog: the candidates are exactly the qualifying
/// locations within reach (checked by scanning every location), and the tour is the
/// best one when few are, and valid and no worse than greedy otherwise.
@Suite struct CatalogTourTests {
    struct Case: CustomStringConvertible {
        var query: TourQuery
        var description: String {
            "lat=\(query.latitude) lon=\(query.longitude) minutes=\(query.budget.minutes) stops=\(query.budget.maxStops) "
                + "minPhotos=\(query.minPhotos) from=\(query.filter.fromYear as Any) to=\(query.filter.toYear as Any) "
                + "borough=\(query.filter.borough?.rawValue ?? "-") topic=\(query.filter.topic.map(String.init) ?? "-")"
        }
    }

    /// Random points over the five boroughs with random budgets and filters; the even
    /// cases have short budgets, so few candidates and the exact search.
    static let cases: [Case] = {
        var random = SeededGenerator(seed: 13)
        return (0..<36).map { index in
            let short = index % 2 == 0
            var filter = PhotoFilter()
            if index % 3 == 1 {
                filter.fromYear = Int.random(in: 1860...1930, using: &random)
                filter.toYear = filter.fromYear! + Int.random(in: 0...40, using: &random)
            }
            if index % 4 == 3 { filter.borough = Borough.allCases.randomElement(using: &random) }
            // Common topics (the first ten), so that some locations keep enough photos.
            if index % 5 == 2 { filter.topic = Int.random(in: 0..<10, using: &random) }
            return Case(
                query: TourQuery(
                    latitude: 40.57 + Double.random(in: 0..<0.30, using: &random),
                    longitude: -74.04 + Double.random(in: 0..<0.22, using: &random),
                    budget: TourBudget(
                        minutes: short ? Int.random(in: 10...16, using: &random) : Int.random(in: 17...240, using: &random),
                        maxStops: Int.random(in: 2...20, using: &random)),
                    minPhotos: short ? Int.random(in: 1...12, using: &random) : Int.random(in: 1...30, using: &random),
                    filter: filter))
        }
    }()

    /// The qualifying locations within reach, by scanning every location.
    static func candidates(_ query: TourQuery, _ catalog: PhotoCatalog) -> [(location: Int, site: TourOracle.Site)] {
        let start = TourOracle.Point(latitude: query.latitude, longitude: query.longitude)
        let reach = Double(query.budget.minutes - 3) * 75
        var found: [(location: Int, site: TourOracle.Site)] = []
        for (index, location) in catalog.locations.enumerated() {
            if let borough = query.filter.borough, location.borough != borough { continue }
            let point = TourOracle.Point(latitude: location.latitude, longitude: location.longitude)
            guard TourOracle.meters(start, point) <= reach else { continue }
            let photos = catalog.photos[location.photos].count { photo in
                if let topic = query.filter.topic, !(try! TopicOracle.load()).photo(photo.photoID, has: topic) { return false }
                guard query.filter.fromYear != nil || query.filter.toYear != nil else { return true }
                return photo.years.contains { year in
                    guard let year = Int(year) else { return false }
                    return year >= (query.filter.fromYear ?? .min) && year <= (query.filter.toYear ?? .max)
                }
            }
            if photos >= query.minPhotos { found.append((index, TourOracle.Site(point: point, photos: photos))) }
        }
        return found
    }

    @Test(arguments: cases)
    func toursOverTheCatalog(_ testCase: Case) throws {
        let catalog = try SharedCatalog.catalog()
        let query = testCase.query
        let problem = catalog.tourProblem(query)
        let expected = Self.candidates(query, catalog)
        #expect(problem.sites.map(\.location) == expected.map(\.location))
        #expect(problem.sites.map(\.photoCount) == expected.map(\.site.photos))

        let tour = problem.bestTour()
        let instance = OrienteeringProblemTests.Instance(
            start: TourOracle.Point(latitude: query.latitude, longitude: query.longitude),
            sites: expected.map(\.site), minutes: query.budget.minutes, maxStops: query.budget.maxStops)
        let position = Dictionary(uniqueKeysWithValues: expected.enumerated().map { ($1.location, $0) })
        let renumbered = tour.stops.map { position[$0.site.location]! }
        OrienteeringProblemTests.expectValid(tour, instance, visiting: renumbered)
        for stop in tour.stops {
            let location = catalog.locations[stop.site.location]
            #expect(query.filter.borough == nil || location.borough == query.filter.borough)
            #expect(stop.site.photoCount >= query.minPhotos)
        }

        if expected.count <= OrienteeringProblem.exactLimit {
            let best = TourOracle.best(
                start: instance.start, sites: instance.sites, minutes: instance.minutes, maxStops: instance.maxStops)
            #expect(tour.photoCount == best.photos && abs(tour.distanceMeters - best.meters) < 1e-6)
        } else {
            let greedy = TourOracle.greedy(
                start: instance.start, sites: instance.sites, minutes: instance.minutes, maxStops: instance.maxStops)
            #expect(tour.photoCount > greedy.photos || (tour.photoCount == greedy.photos && tour.distanceMeters <= greedy.meters + 1e-6))
        }
    }

    /// The cases above exercise both searches.
    @Test func theCasesExerciseBothSearches() throws {
        let catalog = try SharedCatalog.catalog()
        let exact = Self.cases.count { Self.candidates($0.query, catalog).count <= OrienteeringProblem.exactLimit }
        #expect(exact >= 8 && exact <= Self.cases.count - 8, "\(exact) of \(Self.cases.count) cases with few enough candidates for the exact search")
    }
}
