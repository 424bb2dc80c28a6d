@testable import API
import Catalog
import Foundation
import Testing
import TestSupport
import UserData

/// `kill -9` of the real server while it builds a new generation of the catalog: nothing
/// of a generation is stored, so the restarted server reads every accepted correction
/// and listens only once it serves their generation, whole.
@Suite(.serialized) struct CatalogGenerationCrashTests {
    @Test(.enabled(if: TestDatabase.usesSQLite, "opens accounts.sqlite beside the server")) func aKilledBuildComesBackWithEveryCorrection() throws {
        let directory = try TemporaryDirectory(prefix: "generation-crash")
        try SharedCatalog.copy(into: directory.path)
        let server = try ServerProcess(dataDirectory: directory.path)
        let shippedToken = try Self.generation(port: server.port)
        let store = try UserDataLocation(dataDirectory: directory.path, databaseURL: nil).openStore()

        // A thousand corrections across the catalog: a build of seconds.
        let catalog = try SharedCatalog.catalog()
        let changes: [(photoID: String, change: CatalogCorrection.Change)] = (0..<1_000).map { index in
            let photo = catalog.photos[index * 41 % catalog.photos.count]
            let change: CatalogCorrection.Change =
                switch index % 3 {
                case 0: .location(latitude: 40.70 + Double(index % 97) * 0.001, longitude: -73.99 + Double(index % 89) * 0.001)
                case 1: .date(year: 1880 + index % 100)
                default: .rotation(degrees: 90 * (index % 4))
                }
            return (photo.photoID, change)
        }
        let cpuBefore = try server.cpuTime()
        try CorrectionRows.accept(changes, into: store)
        // Mid-build: the server has spent CPU on them and still serves the generation before.
        #expect(try CorrectionRows.wait(seconds: 60) { try server.cpuTime() - cpuBefore >= .milliseconds(150) })
        try #require(try Self.generation(port: server.port) == shippedToken, "the build ended before the kill")
        server.kill9()

        let restarted = try ServerProcess(dataDirectory: directory.path)
        defer { restarted.stop() }
        let corrections = try CatalogCorrection.accepted(in: store)
        let content = try SharedCatalog.content()
        let expected = try CatalogGeneration(
            shipped: content.shipped, search: content.shippedSearch,
            history: CorrectionHistory(shippedDataVersion: content.shipped.dataVersion, corrections: corrections), reusing: [])
        let client = try RawHTTPClient(port: restarted.port)
        let snapshot = try client.request("GET", "/catalog/snapshot")
        #expect(snapshot.header("Catalog-Generation") == expected.token, "the generation of every correction, from the start")
        #expect(snapshot.body == expected.snapshot.body, "nothing half-applied")
    }

    private static func generation(port: Int) throws -> String {
        try #require(try RawHTTPClient(port: port).request("GET", "/catalog/changes").object()["generation"] as? String)
    }
}
