@testable import API
import Catalog
import Explore
import Foundation
import Gzip
import HTTPServer
import Testing
import TestSupport

/// A generation of the catalog (`CatalogGeneration`: the shipped catalog with the accepted
/// corrections laid over it) against its brute-force twin, an import from scratch of the
/// source with the corrections applied to its records (`CorrectedSource`): the same
/// snapshot, byte for byte, and the same answers to random `/nearby`, `/region`,
/// `/locations/{id}`, `/search`, `/clusters`, `/topics` and `/boroughs` queries; and
/// the changes from an earlier generation applied to its snapshot give the later one's.
/// Seeded random corrections over a sample of the source's lines spread across the
/// city, and one set over the whole catalog.
@Suite struct GenerationOracleTests {
    /// Every 25th line of the source: 361 locations in every borough.
    static let sample: Result<Shipped, any Error> = Result {
        let lines = try CatalogFixture.allSourceLines()
        return try Shipped(lines: stride(from: 0, to: lines.count, by: 25).map { lines[$0] })
    }

    /// The whole source, imported once per process (`SharedCatalog`).
    static let whole: Result<Shipped, any Error> = Result {
        let content = try SharedCatalog.content()
        return Shipped(
            lines: try CatalogFixture.allSourceLines(), catalog: content.shipped, search: content.shippedSearch,
            blocks: try CatalogStore.storedSnapshotBlocks(dataDirectory: SharedCatalog.directory))
    }

    @Test(arguments: 1...10 as ClosedRange<UInt64>)
    func aGenerationIsTheImportOfItsCorrectedSource(seed: UInt64) throws {
        let shipped = try Self.sample.get()
        let corrections = RandomCorrections.make(count: Int(seed) * 6, shipped: shipped.catalog, seed: seed)
        try Self.compare(shipped, corrections: corrections, queries: 60, seed: seed)
    }

    @Test func theWholeCatalogToo() throws {
        let shipped = try Self.whole.get()
        let corrections = RandomCorrections.make(count: 40, shipped: shipped.catalog, seed: 4_004)
        try Self.compare(shipped, corrections: corrections, queries: 40, seed: 4_004)
    }

    @Test(arguments: 11...16 as ClosedRange<UInt64>)
    func changesSinceAGenerationTurnItsSnapshotIntoTheLatest(seed: UInt64) throws {
        let shipped = try Self.sample.get()
        let corrections = RandomCorrections.make(count: 30, shipped: shipped.catalog, seed: seed)
        let latest = try shipped.generation(corrections)
        var random = SeededGenerator(seed: seed)
        for count in [0, corrections.count] + (0..<4).map({ _ in Int.random(in: 0...corrections.count, using: &random) }) {
            let earlier = try shipped.generation(Array(corrections.prefix(count)))
            let applied = try Self.applying(Self.changes(since: earlier.token, to: latest), to: earlier.snapshot.body)
            #expect(applied == latest.snapshot.body, "seed \(seed), since \(count) of \(corrections.count)")
        }
    }

    @Test func changesOnTheWholeCatalogToo() throws {
        let shipped = try Self.whole.get()
        let corrections = RandomCorrections.make(count: 40, shipped: shipped.catalog, seed: 5_005)
        let latest = try shipped.generation(corrections)
        for count in [0, 17, 39] {
            let earlier = try shipped.generation(Array(corrections.prefix(count)))
            let applied = try Self.applying(Self.changes(since: earlier.token, to: latest), to: earlier.snapshot.body)
            #expect(applied == latest.snapshot.body, "since \(count) of \(corrections.count)")
        }
    }

    /// The generation of `corrections` and the import of the corrected source agree.
    static func compare(_ shipped: Shipped, corrections: [CatalogCorrection], queries: Int, seed: UInt64) throws {
        let generation = try shipped.generation(corrections)
        let twin = try Shipped(importing: try CorrectedSource.directory(lines: shipped.lines, corrections: corrections))
            .generation([])
        let (catalog, expected) = (generation.catalog, twin.catalog)
        let sameSnapshot = generation.snapshot.body == twin.snapshot.body
        #expect(sameSnapshot, "seed \(seed): the snapshots differ")
        let changed = CatalogChanges.between(.none, generation.corrections, shipped: shipped.catalog)
        #expect(!changed.isEmpty, "seed \(seed): the corrections change the catalog")
        #expect(catalog.photos.map(\.photoID) == expected.photos.map(\.photoID), "seed \(seed): the photos' order")
        #expect(catalog.locations.map(\.photos) == expected.locations.map(\.photos), "seed \(seed)")
        #expect(catalog.dataVersion != shipped.catalog.dataVersion || corrections.isEmpty, "a new generation has new ETags")

        // The accepted turn of each photo, which the image routes serve.
        var turns: [String: Int] = [:]
        for correction in corrections {
            if case .rotation(let degrees) = correction.change, [0, 90, 180, 270].contains(degrees),
                shipped.catalog.photoIndex(photoID: correction.photoID) != nil
            {
                turns[correction.photoID] = degrees
            }
        }
        for photo in catalog.photos {
            #expect(catalog.acceptedRotation(photoID: photo.photoID) == turns[photo.photoID] ?? 0, "\(photo.photoID)")
        }

        let clients = (InMemoryHTTPClient(router: router(generation)), InMemoryHTTPClient(router: router(twin)))
        var random = SeededGenerator(seed: seed)
        for request in Self.requests(count: queries, catalog: expected, random: &random) {
            let (answer, truth) = (try clients.0.get(request.path, query: request.query), try clients.1.get(request.path, query: request.query))
            let same = answer.status == truth.status && answer.body == truth.body
            #expect(same, "seed \(seed): \(request) answered \(answer.status) \(answer.bodyText.prefix(300)), the import \(truth.status) \(truth.bodyText.prefix(300))")
        }
    }

    /// A router serving one generation's catalog routes.
    static func router(_ generation: CatalogGeneration) -> Router {
        var router = Router()
        CatalogRoutes.register(in: &router) { generation.catalogRoutes }
        SearchRoutes.register(in: &router) { generation.searchRoutes }
        ClusterRoutes.register(in: &router) { generation.clusterRoutes }
        TopicRoutes.register(in: &router) { generation.topicRoutes }
        return router
    }

    /// Random catalog requests over the area and the words of `catalog`, each location's
    /// pages among them.
    static func requests(count: Int, catalog: PhotoCatalog, random: inout SeededGenerator) -> [(path: String, query: [(String, String)])] {
        func point() -> (String, String) {
            let location = catalog.locations.randomElement(using: &random)!
            return (String(location.latitude + Double.random(in: -0.01...0.01, using: &random)),
                String(location.longitude + Double.random(in: -0.01...0.01, using: &random)))
        }
        func filters() -> [(String, String)] {
            var filters: [(String, String)] = []
            if Bool.random(using: &random) { filters += [("from", "1900"), ("to", String(Int.random(in: 1900...1990, using: &random)))] }
            if Int.random(in: 0..<4, using: &random) == 0 { filters.append(("borough", Borough.allCases.randomElement(using: &random)!.rawValue)) }
            if Int.random(in: 0..<5, using: &random) == 0, let topic = catalog.topicIndex.topics.randomElement(using: &random) {
                filters.append(("topic", topic.name))
            }
            return filters
        }
        func box() -> [(String, String)] {
            let (a, b) = (point(), point())
            let (south, north) = (min(Double(a.0)!, Double(b.0)!), max(Double(a.0)!, Double(b.0)!))
            let (west, east) = (min(Double(a.1)!, Double(b.1)!), max(Double(a.1)!, Double(b.1)!))
            return [("south", String(south - 0.05)), ("west", String(west - 0.05)), ("north", String(north + 0.05)), ("east", String(east + 0.05))]
        }
        /// A word of a random photo's text or place, whole or cut to a prefix.
        func words() -> String {
            let photo = catalog.photos.randomElement(using: &random)!
            let texts = [photo.title, photo.folder, photo.text, photo.intersection, catalog.locations[photo.locationIndex].intersection]
            let found = texts.compactMap { $0 }.flatMap { SearchWords.words($0) }.map(String.init)
            guard var word = found.randomElement(using: &random) else { return "street" }
            if Bool.random(using: &random) { word = String(word.prefix(max(1, word.count / 2))) }
            if Bool.random(using: &random), let other = found.randomElement(using: &random) { word = other + " " + word }
            return word
        }
        var requests: [(path: String, query: [(String, String)])] = [("/topics", []), ("/boroughs", [])]
        for _ in 0..<count {
            let (latitude, longitude) = point()
            requests.append(("/nearby", [("lat", latitude), ("lon", longitude), ("limit", String(Int.random(in: 1...30, using: &random))),
                ("photos", String(Int.random(in: 0...8, using: &random)))] + filters()))
            requests.append(("/region", box() + [("limit", String(Int.random(in: 1...400, using: &random)))] + filters()))
            requests.append(("/clusters", box() + [("zoom", String(Int.random(in: 9...17, using: &random)))] + filters()))
            var search = [("q", words()), ("limit", String(Int.random(in: 1...40, using: &random)))] + filters()
            if Bool.random(using: &random) { search += [("lat", latitude), ("lon", longitude)] }
            requests.append(("/search", search))
        }
        for location in catalog.locations {
            requests.append(("/locations/\(location.locationID)", [("limit", "3")]))
        }
        return requests
    }

    /// The body of `GET /catalog/changes?since=` of `generation`, as its route makes it.
    static func changes(since: String, to generation: CatalogGeneration) throws -> [UInt8] {
        guard case .generation(let count) = generation.history.lookUp(since) else {
            throw RawChanges.Malformed.answer("\(since) is not an earlier generation")
        }
        return try SnapshotRoutes.changes(since: since, count: count, of: generation).body
    }

    /// A snapshot with a changes answer applied: each changed location's line replaced,
    /// added in `locationID` order, or removed, byte for byte as the answer carries it.
    static func applying(_ answer: [UInt8], to snapshot: [UInt8]) throws -> [UInt8] {
        var lines: [String: ArraySlice<UInt8>] = [:]
        for line in snapshot.split(separator: UInt8(ascii: "\n")) { lines[try Self.locationID(of: line)] = line }
        for change in try RawChanges(answer).changes {
            lines[change.locationID] = change.location
        }
        let order = lines.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return order.flatMap { Array(lines[$0]!) + [UInt8(ascii: "\n")] }
    }

    /// The `locationID` a snapshot line starts with.
    static func locationID(of line: ArraySlice<UInt8>) throws -> String {
        let prefix = Array(#"{"locationID":""#.utf8)
        try #require(line.starts(with: prefix))
        let rest = line.dropFirst(prefix.count)
        return String(decoding: rest.prefix { $0 != UInt8(ascii: "\"") }, as: UTF8.self)
    }

    /// The catalog built from source lines, and what makes its generations.
    struct Shipped: Sendable {
        let lines: [String]
        let catalog: ShippedCatalog
        let search: ShippedSearchIndex
        let blocks: [GzipBlock]

        init(lines: [String], catalog: ShippedCatalog, search: ShippedSearchIndex, blocks: [GzipBlock]) {
            (self.lines, self.catalog, self.search, self.blocks) = (lines, catalog, search, blocks)
        }

        /// Imports `lines`.
        init(lines: [String]) throws {
            try self.init(lines: lines, sourceDirectory: try CatalogFixture.sourceDirectory(lines: lines))
        }

        /// Imports the source in `sourceDirectory`, whose lines are `lines`.
        private init(lines: [String], sourceDirectory: String) throws {
            let data = try CatalogFixture.temporaryDirectory()
            let catalog = try CatalogStore.openOrBuild(
                dataDirectory: data, sourceDirectory: sourceDirectory, snapshot: CatalogSnapshot.blocks(for:))
            self.init(
                lines: lines, catalog: catalog,
                search: try ShippedSearchIndex(databasePath: CatalogStore.databasePath(data), shipped: catalog),
                blocks: try CatalogStore.storedSnapshotBlocks(dataDirectory: data))
        }

        /// Imports the source in `directory` (its lines are not kept).
        init(importing directory: String) throws {
            try self.init(lines: [], sourceDirectory: directory)
        }

        func generation(_ corrections: [CatalogCorrection]) throws -> CatalogGeneration {
            try CatalogGeneration(
                shipped: catalog, search: search,
                history: CorrectionHistory(shippedDataVersion: catalog.dataVersion, corrections: corrections), reusing: blocks)
        }
    }
}
