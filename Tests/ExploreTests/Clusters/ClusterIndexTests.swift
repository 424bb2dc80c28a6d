import Catalog
import Explore
import Testing
import TestSupport

@Suite struct ClusterIndexTests {
    static func query(_ query: ClusterOracle.Query) -> ClusterQuery {
        ClusterQuery(
            south: query.south, west: query.west, north: query.north, east: query.east, zoom: query.zoom,
            limit: query.limit,
            filter: PhotoFilter(fromYear: query.fromYear, toYear: query.toYear, topic: query.topic, borough: query.borough))
    }

    /// A cluster as the API shows it.
    static func expected(_ cluster: Cluster, _ catalog: PhotoCatalog) -> ClusterOracle.Expected {
        ClusterOracle.Expected(
            latitude: cluster.latitude, longitude: cluster.longitude, locationCount: cluster.locationCount,
            photoCount: cluster.photoCount, south: cluster.south, west: cluster.west, north: cluster.north,
            east: cluster.east,
            locationID: cluster.locationCount == 1 ? catalog.locations[cluster.representative].locationID : nil,
            thumbnailURL: catalog.photos[cluster.thumbnailPhoto].thumbnailURL)
    }

    /// Many seeded random queries (boxes of every size, across the antimeridian, single
    /// points; every zoom; filters and limits), each against the brute-force oracle.
    @Test(arguments: 0..<8)
    func clustersEqualTheOracle(_ batch: Int) throws {
        let shared = try ClusterFixture.load()
        var generator = SeededGenerator(seed: 0xC105_7E25 &+ UInt64(batch))
        for _ in 0..<40 {
            let query = ClusterOracle.Query.random(using: &generator, catalog: shared.catalog)
            let expected = shared.oracle.clusters(query)
            let result = shared.index.clusters(Self.query(query))
            #expect(result.zoom == query.zoom)
            #expect(result.total == expected.total, "\(query)")
            #expect(result.truncated == (expected.total > query.limit), "\(query)")
            let clusters = result.matches.map { Self.expected(result.cluster($0), shared.catalog) }
            #expect(clusters.count == expected.clusters.count, "\(query)")
            let mismatch = zip(clusters, expected.clusters).enumerated().first { !$0.element.0.matches($0.element.1) }
            #expect(mismatch == nil, "\(query): cluster \(mismatch?.offset ?? -1) is \(mismatch.map { "\($0.element.0)" } ?? "") not \(mismatch.map { "\($0.element.1)" } ?? "")")
            let grid = shared.index.grids[query.zoom]
            for match in result.matches {
                #expect((result.cluster(match) == grid.cells[match.cell]) == match.isWholeCell, "\(query)")
            }
        }
    }

    /// At zoom 0 the city is one cell; at zoom 22 every location is alone in its cell.
    @Test func theCoarsestAndFinestZooms() throws {
        let shared = try ClusterFixture.load()
        let catalog = shared.catalog
        let world = shared.index.clusters(ClusterQuery(south: -90, west: -180, north: 90, east: 180, zoom: 0, limit: 500))
        #expect(world.total == 1 && world.matches.count == 1)
        let cluster = try #require(world.matches.first.map(world.cluster))
        #expect(cluster.locationCount == catalog.locations.count && cluster.photoCount == catalog.photos.count)
        #expect(world.matches.first?.isWholeCell == true)

        let finest = shared.index.clusters(ClusterQuery(south: -90, west: -180, north: 90, east: 180, zoom: 22, limit: 5000))
        #expect(finest.total == catalog.locations.count)
        #expect(finest.truncated)
        #expect(finest.matches.allSatisfy { finest.cluster($0).locationCount == 1 && $0.isWholeCell })
    }

    /// Asking for the whole city at zooms 10, 11 and 13 (the benchmarked queries) reads
    /// only whole cells; a year filter makes every cluster a computed one.
    @Test(arguments: [10, 11, 13])
    func wholeCityUsesThePrecomputedCells(_ zoom: Int) throws {
        let shared = try ClusterFixture.load()
        let city = ClusterOracle.Query.city
        let plain = shared.index.clusters(
            ClusterQuery(south: city.south, west: city.west, north: city.north, east: city.east, zoom: zoom, limit: 5000))
        #expect(plain.total == shared.index.grids[zoom].cells.count)
        #expect(plain.matches.allSatisfy { $0.isWholeCell })
        let filtered = shared.index.clusters(
            ClusterQuery(
                south: city.south, west: city.west, north: city.north, east: city.east, zoom: zoom, limit: 5000,
                filter: PhotoFilter(fromYear: 1920, toYear: 1929)))
        #expect(filtered.matches.contains { !$0.isWholeCell })
        let photos = { (result: ClusterResult) in result.matches.map { result.cluster($0).photoCount }.reduce(0, +) }
        #expect(photos(filtered) < photos(plain))
    }
}
