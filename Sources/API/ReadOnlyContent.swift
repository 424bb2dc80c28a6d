import Catalog
import Explore
import Foundation
import Logging

/// Everything the routes serve that no request changes: the shipped catalog and its
/// search index (what every generation of the catalog is made from), the generation of
/// the corrections accepted when it was made (`CatalogGeneration`: pre-rendered JSON,
/// search postings, cluster grids, topics, the offline snapshot), the OpenAPI document
/// and the web folder. Start-up spends nearly all its time here, so an `Application`
/// builds it from its configuration, or is handed one built before: the tests build it
/// once per process and share it between the applications they boot.
public struct ReadOnlyContent: Sendable {
    let shipped: ShippedCatalog
    let shippedSearch: ShippedSearchIndex
    let generation: CatalogGeneration
    let openAPI: OpenAPIDocument
    let webRoutes: WebRoutes

    /// The catalog of `generation`.
    public var catalog: PhotoCatalog { generation.catalog }

    /// Loads (or first builds) the catalog of the data directory and computes the rest.
    /// - Parameter corrections: the accepted corrections, in `sequence` order, whose
    ///   generation to build; none by default.
    public init(configuration: ApplicationConfiguration, logger: Logger, corrections: [CatalogCorrection] = []) throws {
        try FileManager.default.createDirectory(
            atPath: configuration.dataDirectory, withIntermediateDirectories: true)
        let started = ContinuousClock.now
        shipped = try CatalogStore.openOrBuild(
            dataDirectory: configuration.dataDirectory, sourceDirectory: configuration.sourceDirectory,
            snapshot: CatalogSnapshot.blocks(for:))
        shippedSearch = try ShippedSearchIndex(
            databasePath: CatalogStore.databasePath(configuration.dataDirectory), shipped: shipped)
        logger.info("catalog ready", metadata: ["duration_ms": "\((ContinuousClock.now - started).milliseconds)"])
        openAPI = try OpenAPIDocument(path: configuration.openAPIPath)
        webRoutes = try WebRoutes(configuration: configuration)
        generation = try CatalogGeneration.build(
            CorrectionHistory(shippedDataVersion: shipped.dataVersion, corrections: corrections), shipped: shipped,
            search: shippedSearch, reusing: CatalogStore.storedSnapshotBlocks(dataDirectory: configuration.dataDirectory),
            logger: logger)
    }
}
