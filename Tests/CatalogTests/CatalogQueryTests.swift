import Catalog
import Foundation
import TestSupport
import Testing
import TestSupport

@Suite struct CatalogQueryTests {
    /// Filters to combine with every query: none, years only, borough only, both, open
    /// ranges, a common topic and a rare one (by the oracle's numbering of `Data/`).
    static let filters: [PhotoFilter] = [
        PhotoFilter(topic: try! TopicOracle.load().number(named: "ELEVATED railroads")),
        PhotoFilter(fromYear: 1900, toYear: 1930, topic: try! TopicOracle.load().number(named: "parks")),
        PhotoFilter(topic: try! TopicOracle.load().topics.count - 1),
        PhotoFilter(),
        PhotoFilter(fromYear: 1900, toYear: 1920),
        PhotoFilter(fromYear: 1935, toYear: 1935),
        PhotoFilter(fromYear: 1960),
        PhotoFilter(toYear: 1880),
        PhotoFilter(borough: .brooklyn),
        PhotoFilter(borough: .statenIsland),
        PhotoFilter(fromYear: 1910, toYear: 1930, borough: .manhattan),
        PhotoFilter(fromYear: 1800, toYear: 1850, borough: .queens),
    ]

    @Test func nearbyMatchesBruteForceAroundNewYork() throws {
        let fixture = try CatalogFixture.load()
        var generator = SeededGenerator(seed: 20_241_122)
        for round in 0..<160 {
            let latitude = Double.random(in: 40.45...40.96, using: &generator)
            let longitude = Double.random(in: -74.3...(-73.65), using: &generator)
            let filter = Self.filters[round % Self.filters.count]
            let limit = [1, 3, 10, 57, 100][round % 5]
            let radius: Double? = [nil, 250, 1_000, 50_000][(round / 5) % 4]
            let query = NearbyQuery(latitude: latitude, longitude: longitude, limit: limit, radius: radius, filter: filter)
            try Self.check(query, fixture)
        }
    }

    @Test(arguments: [
        (0.0, 0.0), (90.0, 0.0), (-90.0, 180.0), (40.7, 179.99), (40.7, -180.0), (-33.9, 151.2),
        (40.758, -73.9855), (40.500426, -74.23651),
    ])
    func nearbyMatchesBruteForceAnywhereOnEarth(point: (Double, Double)) throws {
        let fixture = try CatalogFixture.load()
        for filter in Self.filters {
            for limit in [1, 10, 100] {
                try Self.check(NearbyQuery(latitude: point.0, longitude: point.1, limit: limit, filter: filter), fixture)
                try Self.check(
                    NearbyQuery(latitude: point.0, longitude: point.1, limit: limit, radius: 50_000, filter: filter), fixture)
            }
        }
    }

    /// Catalogs smaller than one leaf of the spatial index (`SpatialIndex.leafSize`, 16),
    /// exactly one leaf, just over one, and a few leaves.
    @Test(arguments: [1, 5, 16, 17, 40])
    func nearbyMatchesBruteForceOnSmallCatalogs(locationCount: Int) throws {
        let source = try CatalogFixture.sourceDirectory(lines: try CatalogFixture.sourceLines(locationCount))
        let data = try CatalogFixture.temporaryDirectory()
        let catalog = PhotoCatalog(try CatalogStore.openOrBuild(dataDirectory: data, sourceDirectory: source))
        let fixture = CatalogFixture.Shared(
            catalog: catalog, oracle: try Oracle(path: source + "/oldnyc-locations.jsonl.gz", catalog: catalog))
        #expect(catalog.locations.count == locationCount)
        for point in [(40.758, -73.9855), (40.6, -74.1), (-33.9, 151.2)] {
            // Topic numbers are those of the whole catalog's topics, not of this one's.
            for filter in Self.filters where filter.topic == nil {
                for limit in [1, 3, 100] {
                    try Self.check(NearbyQuery(latitude: point.0, longitude: point.1, limit: limit, filter: filter), fixture)
                    try Self.check(
                        NearbyQuery(latitude: point.0, longitude: point.1, limit: limit, radius: 2_000, filter: filter), fixture)
                }
            }
        }
    }

    /// The radius search (`locations(withinMeters:…)`, which tours start from) walks the
    /// same tree as the nearest search: every location within the radius with enough
    /// matching photos, in location order, against the brute-force oracle.
    @Test func locationsWithinMetersMatchBruteForce() throws {
        let fixture = try CatalogFixture.load()
        var generator = SeededGenerator(seed: 20_261_123)
        for round in 0..<120 {
            let latitude = Double.random(in: 40.45...40.96, using: &generator)
            let longitude = Double.random(in: -74.3...(-73.65), using: &generator)
            let filter = Self.filters[round % Self.filters.count]
            let radius = [100.0, 600, 2_500, 9_000][round % 4]
            let minPhotos = [1, 2, 5][round % 3]
            let found = fixture.catalog.locations(
                withinMeters: radius, latitude: latitude, longitude: longitude, filter: filter, minPhotos: minPhotos)
            let expected = fixture.oracle.nearby(
                NearbyQuery(latitude: latitude, longitude: longitude, limit: .max, radius: radius, filter: filter)
            ).filter { $0.found.photoCount >= minPhotos }.sorted { $0.found.id < $1.found.id }
            let query = "\(latitude),\(longitude) r=\(radius) \(filter) min=\(minPhotos)"
            #expect(found.map { fixture.catalog.locations[$0.location].locationID } == expected.map(\.found.id), "\(query)")
            #expect(found.map(\.photoCount) == expected.map(\.found.photoCount), "\(query)")
            for (match, oracle) in zip(found, expected) {
                #expect(abs(match.distance - oracle.distance) <= 1e-6 * max(1, oracle.distance), "\(query)")
            }
        }
    }

    @Test func nearbyRadiusIsInclusive() throws {
        let fixture = try CatalogFixture.load()
        let target = fixture.catalog.locations[1234]
        let query = NearbyQuery(latitude: target.latitude + 0.001, longitude: target.longitude, limit: 100)
        let exact = try #require(fixture.catalog.nearby(query).first { $0.location == 1234 }).distance
        var bounded = query
        bounded.radius = exact
        #expect(fixture.catalog.nearby(bounded).contains { $0.location == 1234 })
        bounded.radius = exact.nextDown
        #expect(!fixture.catalog.nearby(bounded).contains { $0.location == 1234 })
    }

    @Test func nearbyAtALocationFindsItFirstAtDistanceZero() throws {
        let fixture = try CatalogFixture.load()
        for index in stride(from: 0, to: fixture.catalog.locations.count, by: 997) {
            let location = fixture.catalog.locations[index]
            let found = fixture.catalog.nearby(NearbyQuery(latitude: location.latitude, longitude: location.longitude, limit: 1))
            #expect(found.map(\.location) == [index])
            #expect(found.map(\.distance) == [0])
            #expect(found.map(\.photoCount) == [location.photos.count])
        }
    }

    @Test func regionMatchesBruteForce() throws {
        let fixture = try CatalogFixture.load()
        var generator = SeededGenerator(seed: 7)
        var queries: [RegionQuery] = [
            RegionQuery(south: -90, west: -180, north: 90, east: 180, limit: 5000),
            RegionQuery(south: -90, west: -180, north: 90, east: 180, limit: 25),
            RegionQuery(south: -90, west: 180, north: 90, east: -180, limit: 100),
            RegionQuery(south: 40.5, west: 170, north: 41, east: -73.9, limit: 300),
            RegionQuery(south: 40.5, west: -73.9, north: 41, east: -74.0, limit: 5000),
            RegionQuery(south: 0, west: 0, north: 10, east: 10, limit: 10),
        ]
        for round in 0..<120 {
            let south = Double.random(in: 40.45...40.95, using: &generator)
            let west = Double.random(in: -74.3...(-73.7), using: &generator)
            let size = [0.003, 0.01, 0.05, 0.3][round % 4]
            queries.append(
                RegionQuery(
                    south: south, west: west, north: south + size, east: west + size * 1.3,
                    limit: [1, 7, 400, 5000][(round / 4) % 4], filter: Self.filters[round % Self.filters.count]))
        }
        for (offset, query) in queries.enumerated() {
            var filtered = query
            filtered.filter = Self.filters[offset % Self.filters.count]
            for query in [query, filtered] {
                let result = fixture.catalog.region(query)
                let expected = fixture.oracle.region(query)
                let found = result.matches.map {
                    Oracle.Found(id: fixture.catalog.locations[$0.location].locationID, photoCount: $0.photoCount)
                }
                #expect(found == expected.found, "\(query)")
                #expect(result.total == expected.total, "\(query)")
                #expect(result.truncated == (expected.total > query.limit), "\(query)")
            }
        }
    }

    @Test func regionEdgesAreInclusive() throws {
        let fixture = try CatalogFixture.load()
        let location = fixture.catalog.locations[4321]
        let box = RegionQuery(
            south: location.latitude, west: location.longitude, north: location.latitude, east: location.longitude, limit: 10)
        #expect(fixture.catalog.region(box).matches.map(\.location) == [4321])
        var shifted = box
        shifted.south = location.latitude.nextUp
        shifted.north = location.latitude.nextUp
        #expect(fixture.catalog.region(shifted).total == 0)
    }

    @Test func regionThumbnailIsTheFirstMatchingPhoto() throws {
        let fixture = try CatalogFixture.load()
        let filter = PhotoFilter(fromYear: 1930, toYear: 1939)
        let result = fixture.catalog.region(RegionQuery(south: 40.7, west: -74.02, north: 40.75, east: -73.97, limit: 200, filter: filter))
        #expect(!result.matches.isEmpty)
        for match in result.matches {
            let photos = fixture.catalog.locations[match.location].photos
            let first = photos.first { filter.matches(years: fixture.catalog.photos[$0].yearNumbers) }
            #expect(match.firstPhoto == first)
        }
    }

    private static func check(_ query: NearbyQuery, _ fixture: CatalogFixture.Shared) throws {
        let found = fixture.catalog.nearby(query)
        let expected = fixture.oracle.nearby(query)
        #expect(found.map { fixture.catalog.locations[$0.location].locationID } == expected.map(\.found.id), "\(query)")
        #expect(found.map(\.photoCount) == expected.map(\.found.photoCount), "\(query)")
        for (match, oracle) in zip(found, expected) {
            #expect(abs(match.distance - oracle.distance) <= 1e-6 * max(1, oracle.distance), "\(query)")
        }
    }
}
