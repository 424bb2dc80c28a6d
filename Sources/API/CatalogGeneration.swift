import Catalog
import Explore
import Gzip
import Logging

/// One generation of the catalog and everything served from it: the shipped catalog with
/// every accepted correction up to one laid over it (`PhotoCatalog(_:corrections:)`), its
/// JSON, search, clusters, topics and snapshot. Built whole, off the event loop, and
/// swapped in whole (`CatalogGenerations`); a request reads the generation it started
/// with from start to end, and the generation lives as long as such a request does.
///
/// Nothing in it depends on an earlier generation but which snapshot blocks it reuses,
/// which are the same bytes either way: the same corrections make the same generation,
/// byte for byte, on every instance and after every restart.
///
/// `Sendable`: immutable after `init` (the caches inside are behind their locks).
public final class CatalogGeneration: Sendable {
    /// The corrections it holds, with its token.
    let history: CorrectionHistory
    /// What they make of the shipped photos.
    let corrections: PhotoCorrections
    public let catalog: PhotoCatalog
    let catalogRoutes: CatalogRoutes
    let searchRoutes: SearchRoutes
    let clusterRoutes: ClusterRoutes
    let topicRoutes: TopicRoutes
    let snapshot: CatalogSnapshot
    /// The answers of `GET /catalog/changes` made for this generation, by `since`.
    let changes: CatalogChangesCache

    /// Builds every answer's precomputed parts: seconds of CPU, on the caller's thread.
    /// - Parameters:
    ///   - search: the shipped catalog's search index.
    ///   - reusable: snapshot blocks of an earlier generation or of the catalog build.
    /// - Throws: `SearchPostingsError` or a gzip failure; nothing is half made.
    init(
        shipped: ShippedCatalog, search: ShippedSearchIndex, history: CorrectionHistory, reusing reusable: [GzipBlock]
    ) throws {
        self.history = history
        corrections = PhotoCorrections(history.corrections, shipped: shipped)
        catalog = PhotoCatalog(shipped, corrections: corrections, dataVersion: history.dataVersion)
        catalogRoutes = CatalogRoutes(catalog: catalog)
        searchRoutes = SearchRoutes(
            search: try PhotoSearch(catalog: catalog, shipped: search), catalogRoutes: catalogRoutes,
            dataVersion: catalog.dataVersion)
        clusterRoutes = ClusterRoutes(catalog: catalog)
        topicRoutes = TopicRoutes(catalog: catalog)
        snapshot = try CatalogSnapshot(json: catalogRoutes.json, catalog: catalog, reusing: reusable)
        changes = CatalogChangesCache()
    }

    /// The generation of `history`, built as `init` does, and logged with what it cost.
    static func build(
        _ history: CorrectionHistory, shipped: ShippedCatalog, search: ShippedSearchIndex, reusing reusable: [GzipBlock],
        logger: Logger
    ) throws -> CatalogGeneration {
        let started = ContinuousClock.now
        let built = try CatalogGeneration(shipped: shipped, search: search, history: history, reusing: reusable)
        let skipped = built.corrections.skipped
        if !skipped.isEmpty {
            logger.warning(
                "catalog corrections left out: no such photo, or a value no photo can have",
                metadata: ["sequences": "\(skipped.prefix(20).map(\.sequence))", "count": "\(skipped.count)"])
        }
        // A notice: every generation changes what every client is told.
        logger.notice(
            "catalog generation ready",
            metadata: [
                "generation": "\(built.number)", "corrections": "\(history.corrections.count)",
                "duration_ms": "\((ContinuousClock.now - started).milliseconds)",
                "snapshot_bytes": "\(built.snapshot.body.count)", "snapshot_gzip_bytes": "\(built.snapshot.gzipped.count)",
                "snapshot_blocks": "\(built.snapshot.blocks.count)",
                "snapshot_blocks_compressed": "\(built.snapshot.compressedBlocks)",
            ])
        return built
    }

    /// Its number: the `sequence` of the last correction it holds, 0 for the shipped catalog.
    public var number: Int64 { history.generation }

    /// Its token (`Catalog-Generation`, `GET /catalog/changes`).
    public var token: String { history.token }
}
