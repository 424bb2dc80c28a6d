import Accounts
import Catalog
import Dispatch
import Explore
import Feedback
import Foundation
import HTTPServer
import Images
import Logging
import Mail
import UserData
import Walks

/// The assembled server: catalog loaded (or built), accounts opened, every route
/// registered on one router, and the HTTP server that serves it.
public final class Application: Sendable {
    public let server: HTTPServer
    /// Every route of the API: what the server serves, and what in-memory tests run requests through.
    public let router: Router
    /// What the fair-use rules refused, by rule: the HTTP server's and the routes' alike.
    public let refusals: Refusals
    /// The `GET /sync?wait=` requests held now.
    private let syncWaitRoom: SyncWaitRoom
    /// The disk copy of the photographs; its counters are what a metrics scrape reads.
    public let images: ImageCopy
    private let accounts: Accounts
    /// Delivers the account mail; nil when the server sends none.
    private let mailSender: OutboxSender?
    private let logger: Logger
    /// The catalog the routes serve, as the accepted corrections make it.
    public let catalog: CatalogGenerations
    /// The listener of `GET /metrics` (`--metrics-listen`), nil when none.
    public let metricsServer: HTTPServer?

    /// Loads everything the routes need; the server does not listen until `start()`.
    /// The catalog is the generation of every correction accepted so far.
    /// - Parameters:
    ///   - content: the catalog and the rest no request changes, when already built from
    ///     the same source, OpenAPI and web folders; without it, built here. Its generation
    ///     is served when it is that of the store's corrections, else one is built from it.
    ///   - clock: the time the accounts and the feedback go by (tokens' and throttles'
    ///     expiry, the feedback's daily limit); tests move it.
    public init(
        configuration: ApplicationConfiguration, logger: Logger, content: ReadOnlyContent? = nil,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        try FileManager.default.createDirectory(
            atPath: configuration.dataDirectory, withIntermediateDirectories: true)
        let store = try UserDataLocation(
            dataDirectory: configuration.dataDirectory, databaseURL: configuration.databaseURL,
            poolSize: configuration.databasePoolSize
        ).openStore()
        let corrections = try CatalogCorrection.accepted(in: store)
        let content = try content ?? ReadOnlyContent(configuration: configuration, logger: logger, corrections: corrections)
        let generations = try CatalogGenerations(
            initial: content.generation, shipped: content.shipped, search: content.shippedSearch, corrections: corrections,
            store: store, logger: logger)
        let outbox = configuration.mail.map { Outbox(settings: $0) }
        let accounts = try Accounts(
            store: store,
            commonPasswordsPath: configuration.sourceDirectory + "/" + ApplicationConfiguration.commonPasswordsFileName,
            passwordCost: configuration.passwordCost, limits: configuration.accountLimits, clock: clock, mail: outbox)
        mailSender = outbox.map {
            OutboxSender(store: store, outbox: $0, composer: accounts.mailComposer, logger: logger)
        }

        let refusals = Refusals(logger: logger)
        var router = Router()
        ServiceRoutes(openAPI: content.openAPI).register(in: &router)
        content.webRoutes.register(in: &router)
        SnapshotRoutes(generations: generations).register(in: &router)
        PopularRoutes(popular: accounts.popularPhotos, photos: generations).register(in: &router)
        CatalogRoutes.register(in: &router) { generations.current.catalogRoutes }
        SearchRoutes.register(in: &router) { generations.current.searchRoutes }
        ClusterRoutes.register(in: &router) { generations.current.clusterRoutes }
        TopicRoutes.register(in: &router) { generations.current.topicRoutes }
        // 0 lifts the limit.
        let writeLimiter = configuration.userWriteRate > 0
            ? UserWriteLimiter(rate: configuration.userWriteRate, accounts: accounts, refusals: refusals) : nil
        AccountRoutes(accounts: accounts, photos: generations, writeLimiter: writeLimiter, refusals: refusals)
            .register(in: &router)
        TourRoutes(generations: generations, accounts: accounts, compute: try ComputePool()).register(in: &router)
        let walks = Walks(
            database: store, catalog: { generations.current.catalog }, maximumPoints: configuration.maximumWalkPoints)
        WalkRoutes(
            accounts: accounts, walks: walks, photos: generations, writeLimiter: writeLimiter, refusals: refusals
        ).register(in: &router)
        FeedbackRoutes(
            accounts: accounts, desk: FeedbackDesk(database: store, catalog: content.shipped, clock: clock), writeLimiter: writeLimiter,
            refusals: refusals
        ).register(in: &router)
        let syncRoutes = SyncRoutes(
            accounts: accounts, walks: walks, photos: generations,
            maximumHeldPerUser: configuration.maxHeldWaitsPerUser, refusals: refusals, logger: logger)
        syncRoutes.register(in: &router)
        syncWaitRoom = syncRoutes.waitRoom
        images = try ImageCopy(
            directory: configuration.dataDirectory + "/" + ApplicationConfiguration.imagesFolderName,
            capacity: configuration.imageCacheSize)
        var fetching = SourceFetcher.Settings()
        fetching.timeout = configuration.imageSourceTimeout
        let imageMaker = try ImageMaker(copy: images, fetcher: try SourceFetcher(settings: fetching))
        let imageSources = PhotoImageSources(origin: configuration.imageOrigin)
        let currentCatalog: @Sendable () -> PhotoCatalog = { generations.current.catalog }
        ImageRoutes(catalog: currentCatalog, maker: imageMaker, sources: imageSources).register(in: &router)
        let packFiles = try PackFiles(
            directory: configuration.dataDirectory + "/" + ApplicationConfiguration.packsFolderName,
            capacity: configuration.imageCacheSize / 4)
        PackRoutes(
            generation: { generations.current }, preparer: PackPreparer(maker: imageMaker), files: packFiles, sources: imageSources
        ).register(in: &router)
        self.router = router
        self.refusals = refusals
        self.accounts = accounts
        self.logger = logger
        catalog = generations
        try generations.startWatching()
        var serving = configuration.server
        serving.recordsMetrics = configuration.metricsServer != nil
        let server = HTTPServer(configuration: serving, router: router, logger: logger, refusals: refusals)
        self.server = server
        let imageCounters = images.counters
        metricsServer = configuration.metricsServer.map { listening in
            let registry = Self.metricsRegistry(
                server: server, refusals: refusals, syncWaitRoom: syncRoutes.waitRoom, hasher: accounts.hasher,
                commits: store.commitMetrics, images: imageCounters, generations: generations)
            return Self.metricsServer(configuration: listening, registry: registry, logger: logger)
        }
    }

    /// Starts listening, and sending the mail the outbox holds; returns once connections
    /// are accepted. Account deletions that a crash interrupted are finished meanwhile,
    /// in the background (their accounts already stopped working when the deletions began).
    public func start() throws {
        try server.start()
        try mailSender?.start()
        try metricsServer?.start()
        DispatchQueue.global(qos: .utility).async { [accounts, logger] in
            do {
                let finished = try accounts.finishInterruptedDeletions()
                if finished > 0 { logger.notice("finished interrupted account deletions", metadata: ["accounts": "\(finished)"]) }
            } catch {
                logger.error("could not finish the interrupted account deletions", metadata: ["error": "\(error)"])
            }
        }
    }

    /// How many `GET /sync?wait=` requests are held right now, for tests to wait on.
    public var heldSyncWaits: Int { syncWaitRoom.settledCount }

    /// The port the server listens on (the real one when configured with port 0).
    public var port: Int { server.port }

    /// Stops accepting, finishes in-flight requests and closes every connection, then
    /// stops the mail sender (after its attempt under way, if any).
    public func shutdown() {
        metricsServer?.shutdown()
        server.shutdown()
        images.writeServedOrder()
        mailSender?.stop()
    }
}

extension Duration {
    /// Whole milliseconds, for logs.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
