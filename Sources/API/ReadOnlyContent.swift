import Catalog
import Explore
import Foundation
import Logging

/// Everything the routes serve that no request changes: the catalog, what start-up
/// computes from it (pre-rendered JSON, search postings, cluster grids, topics, the
/// offline snapshot), the
/// OpenAPI document and the web folder. Start-up spends nearly all its time here, so
/// an `Application` builds it from its configuration, or is handed one built before:
/// the tests build it once per process and share it between the applications they boot.
public struct ReadOnlyContent: Sendable {
    public let catalog: PhotoCatalog
    let catalogRoutes: CatalogRoutes
    let search: PhotoSearch
    let clusterRoutes: ClusterRoutes
    let topicRoutes: TopicRoutes
    let snapshotRoutes: SnapshotRoutes
    let openAPI: OpenAPIDocument
    let webRoutes: WebRoutes

    /// Loads (or first builds) the catalog of the data directory and computes the rest.
    public init(configuration: ApplicationConfiguration, logger: Logger) throws {
        try FileManager.default.createDirectory(
            atPath: configuration.dataDirectory, withIntermediateDirectories: true)
        let started = ContinuousClock.now
        catalog = try CatalogStore.openOrBuild(
            dataDirectory: configuration.dataDirectory, sourceDirectory: configuration.sourceDirectory,
            snapshot: CatalogSnapshot.gzip(for:))
        logger.info("catalog ready", metadata: ["duration_ms": "\((ContinuousClock.now - started).milliseconds)"])
        openAPI = try OpenAPIDocument(path: configuration.openAPIPath)
        webRoutes = try WebRoutes(configuration: configuration)
        catalogRoutes = CatalogRoutes(catalog: catalog)
        search = try PhotoSearch(catalog: catalog, databasePath: CatalogStore.databasePath(configuration.dataDirectory))
        clusterRoutes = ClusterRoutes(catalog: catalog)
        topicRoutes = TopicRoutes(catalog: catalog)
        let snapshotStarted = ContinuousClock.now
        let snapshot = try CatalogSnapshot(
            json: catalogRoutes.json, dataVersion: catalog.dataVersion,
            storedGzip: CatalogStore.storedSnapshotGzip(dataDirectory: configuration.dataDirectory))
        logger.info(
            "snapshot ready",
            metadata: [
                "duration_ms": "\((ContinuousClock.now - snapshotStarted).milliseconds)", "bytes": "\(snapshot.body.count)",
                "gzip_bytes": "\(snapshot.gzipped.count)", "stored_gzip": "\(snapshot.usedStoredGzip)",
            ])
        snapshotRoutes = SnapshotRoutes(snapshot: snapshot)
    }
}
