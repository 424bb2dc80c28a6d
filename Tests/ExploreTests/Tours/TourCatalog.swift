import Catalog
import TestSupport

/// The real catalog, built once per test process (the build the other test targets share).
enum TourCatalog {
    static let shared: Result<PhotoCatalog, any Error> = Result {
        _ = try SharedCatalog.path()
        return try CatalogStore.openOrBuild(dataDirectory: SharedCatalog.directory, sourceDirectory: PackageRoot.path + "/Data")
    }

    static func load() throws -> PhotoCatalog {
        try shared.get()
    }
}
