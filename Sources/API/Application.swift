import Accounts
import Catalog
import Dispatch
import Explore
import Foundation
import HTTPServer
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
    private let accounts: Accounts
    /// Delivers the account mail; nil when the server sends none.
    private let mailSender: OutboxSender?
    private let logger: Logger

    /// Loads everything the routes need; the server does not listen until `start()`.
    /// - Parameters:
    ///   - content: the catalog and the rest no request changes, when already built from
    ///     the same source, OpenAPI and web folders; without it, built here.
    ///   - clock: the time the accounts go by (tokens' and throttles' expiry); tests move it.
    public init(
        configuration: ApplicationConfiguration, logger: Logger, content: ReadOnlyContent? = nil,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        let content = try content ?? ReadOnlyContent(configuration: configuration, logger: logger)
        try FileManager.default.createDirectory(
            atPath: configuration.dataDirectory, withIntermediateDirectories: true)
        let store = try UserDataLocation(
            dataDirectory: configuration.dataDirectory, databaseURL: configuration.databaseURL,
            poolSize: configuration.databasePoolSize
        ).openStore()
        let outbox = configuration.mail.map { Outbox(settings: $0) }
        let accounts = try Accounts(
            store: store,
            commonPasswordsPath: configuration.sourceDirectory + "/" + ApplicationConfiguration.commonPasswordsFileName,
            passwordCost: configuration.passwordCost, limits: configuration.accountLimits, clock: clock, mail: outbox)
        mailSender = outbox.map {
            OutboxSender(store: store, outbox: $0, composer: accounts.mailComposer, logger: logger)
        }

        let refusals = Refusals(logger: logger)
        let catalog = content.catalog
        let catalogRoutes = content.catalogRoutes
        var router = Router()
        ServiceRoutes(openAPI: content.openAPI).register(in: &router)
        content.webRoutes.register(in: &router)
        content.snapshotRoutes.register(in: &router)
        PopularRoutes(popular: accounts.popularPhotos, photos: catalogRoutes.placedPhotos).register(in: &router)
        catalogRoutes.register(in: &router)
        SearchRoutes(search: content.search, catalogRoutes: catalogRoutes, dataVersion: catalog.dataVersion).register(in: &router)
        content.clusterRoutes.register(in: &router)
        content.topicRoutes.register(in: &router)
        // 0 lifts the limit.
        let writeLimiter = configuration.userWriteRate > 0
            ? UserWriteLimiter(rate: configuration.userWriteRate, accounts: accounts, refusals: refusals) : nil
        AccountRoutes(accounts: accounts, photos: catalogRoutes.placedPhotos, writeLimiter: writeLimiter, refusals: refusals)
            .register(in: &router)
        TourRoutes(catalog: catalog, json: catalogRoutes.json, accounts: accounts, compute: try ComputePool())
            .register(in: &router)
        let walks = Walks(database: store, catalog: catalog, maximumPoints: configuration.maximumWalkPoints)
        WalkRoutes(
            accounts: accounts, walks: walks, photos: catalogRoutes.placedPhotos, writeLimiter: writeLimiter,
            refusals: refusals
        ).register(in: &router)
        let syncRoutes = SyncRoutes(
            accounts: accounts, walks: walks, photos: catalogRoutes.placedPhotos,
            maximumHeldPerUser: configuration.maxHeldWaitsPerUser, refusals: refusals, logger: logger)
        syncRoutes.register(in: &router)
        syncWaitRoom = syncRoutes.waitRoom
        self.router = router
        self.refusals = refusals
        self.accounts = accounts
        self.logger = logger
        server = HTTPServer(configuration: configuration.server, router: router, logger: logger, refusals: refusals)
    }

    /// Starts listening, and sending the mail the outbox holds; returns once connections
    /// are accepted. Account deletions that a crash interrupted are finished meanwhile,
    /// in the background (their accounts already stopped working when the deletions began).
    public func start() throws {
        try server.start()
        try mailSender?.start()
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
    public var heldSyncWaits: Int { syncWaitRoom.heldCount }

    /// The port the server listens on (the real one when configured with port 0).
    public var port: Int { server.port }

    /// Stops accepting, finishes in-flight requests and closes every connection, then
    /// stops the mail sender (after its attempt under way, if any).
    public func shutdown() {
        server.shutdown()
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
