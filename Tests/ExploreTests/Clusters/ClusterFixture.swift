import Catalog
import Explore
import TestSupport

/// The real catalog (the build the other test targets share) and its cluster index,
/// made once per test run.
enum ClusterFixture {
    struct Shared: Sendable {
        let catalog: PhotoCatalog
        let index: ClusterIndex
        let oracle: ClusterOracle
    }

    /// Built lazily (and once) on first use; Swift initializes static lets thread-safely.
    static let shared: Result<Shared, any Error> = Result {
        let catalog = try SharedCatalog.catalog()
        return Shared(catalog: catalog, index: ClusterIndex(catalog: catalog), oracle: ClusterOracle(catalog: catalog))
    }

    static func load() throws -> Shared {
        try shared.get()
    }
}
