import Accounts
import Catalog
import Explore
import Foundation
import HTTPServer
import Logging
import Walks

/// The assembled server: catalog loaded (or built), accounts opened, every route
/// registered on one router, and the HTTP server that serves it.
public final class Application: Sendable {
    public let server: HTTPServer
    /// Every route of the API: what the server serves, and what in-memory tests run requests through.
    public let router: Router

    /// Loads everything the routes need; the server does not listen until `start()`.
    public init(configuration: ApplicationConfiguration, logger: Logger) throws {
        try FileManager.default.createDirectory(
            atPath: configuration.dataDirectory, withIntermediateDirectories: true)
        let started = ContinuousClock.now
        let catalog = try CatalogStore.openOrBuild(
            dataDirectory: configuration.dataDirectory, sourceDirectory: configuration.sourceDirectory)
        logger.info("catalog ready", metadata: ["duration_ms": "\((ContinuousClock.now - started).milliseconds)"])
        let store: any UserDataStore =
            if let url = configuration.databaseURL {
                try PostgresUserDataStore(url: url, poolSize: configuration.databasePoolSize)
            } else {
                try AccountsDatabase(dataDirectory: configuration.dataDirectory)
            }
        let accounts = try Accounts(
            store: store,
            commonPasswordsPath: configuration.sourceDirectory + "/" + ApplicationConfiguration.commonPasswordsFileName,
            passwordCost: configuration.passwordCost)
        let openAPIDocument = try OpenAPIDocument(path: configuration.openAPIPath)
        let webRoutes = try WebRoutes(configuration: configuration)

        var router = Router()
        ServiceRoutes(openAPI: openAPIDocument).register(in: &router)
        webRoutes.register(in: &router)
        let catalogRoutes = CatalogRoutes(catalog: catalog)
        PopularRoutes(popular: accounts.popularPhotos, photos: catalogRoutes.placedPhotos).register(in: &router)
        catalogRoutes.register(in: &router)
        let search = try PhotoSearch(catalog: catalog, databasePath: CatalogStore.databasePath(configuration.dataDirectory))
        SearchRoutes(search: search, catalogRoutes: catalogRoutes, dataVersion: catalog.dataVersion).register(in: &router)
        ClusterRoutes(catalog: catalog).register(in: &router)
        TopicRoutes(catalog: catalog).register(in: &router)
        AccountRoutes(accounts: accounts, photos: catalogRoutes.placedPhotos).register(in: &router)
        TourRoutes(catalog: catalog, json: catalogRoutes.json, accounts: accounts).register(in: &router)
        let walks = Walks(database: accounts.database, catalog: catalog, maximumPoints: configuration.maximumWalkPoints)
        WalkRoutes(accounts: accounts, walks: walks, photos: catalogRoutes.placedPhotos).register(in: &router)
        SyncRoutes(accounts: accounts, walks: walks, photos: catalogRoutes.placedPhotos).register(in: &router)
        self.router = router
        server = HTTPServer(configuration: configuration.server, router: router, logger: logger)
    }

    /// Starts listening; returns once connections are accepted.
    public func start() throws {
        try server.start()
    }

    /// The port the server listens on (the real one when configured with port 0).
    public var port: Int { server.port }

    /// Stops accepting, finishes in-flight requests and closes every connection.
    public func shutdown() {
        server.shutdown()
    }
}

extension Duration {
    /// Whole milliseconds, for logs.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
