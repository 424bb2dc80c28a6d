@testable import Accounts
import Basics
import Catalog
import Feedback
import Foundation
import Testing
import TestSupport
import UserData
import Walks

/// `copy-user-data`: a SQLite store moved into PostgreSQL keeps every account, token,
/// favorite, recent, walk, role, feedback and catalog correction, with the same IDs and
/// cursors; a non-empty target is
/// refused unless told to replace it, and copying again with it gives the same data.
@Suite(.enabled(if: TestDatabase.serverURL != nil, "needs PostgreSQL: set PAST_NYC_TEST_DATABASE_URL"))
struct UserDataCopyTests {
    static let password = "moving day on Mott Street"

    @Test func theCopyKeepsEveryRowAndRefusesANonEmptyTarget() throws {
        let directory = try TemporaryDirectory(prefix: "copy-source")
        let target = try #require(try TestDatabase.make())
        let catalog = try SharedCatalog.catalog()
        let commonPasswords = PackageRoot.path + "/Data/common-passwords.txt"
        // Accounts stores any photo ID (the routes check the catalog): made-up ones do here.
        let photoIDs = (1...6).map { "copied-\($0)" }
        let source = try Accounts(dataDirectory: directory.path, commonPasswordsPath: commonPasswords, passwordCost: .test)
        let sourceWalks = Walks(database: source.database, catalog: { catalog })
        let session = try source.register(username: "Mover", password: Self.password, clientAddress: "192.0.2.7")
        let mover = try source.sessions.authenticate(token: session.token)
        for photoID in photoIDs { _ = try Result.awaiting { source.favorites.save(mover, photoID: photoID, completion: $0) } }
        _ = try Result.awaiting { source.recents.record(mover, photoID: photoIDs[0], completion: $0) }
        let walk = try sourceWalks.start(mover)
        for step in 0..<4 {
            _ = try sourceWalks.addPoint(
                mover, walkID: walk.walkID, point: WalkPoint(latitude: 40.7359 + Double(step) * 0.00135, longitude: -73.9911))
        }
        try UserRoles.assign(.moderator, toUsername: "mover", in: source.database)
        let sourceDesk = FeedbackDesk(database: source.database, catalog: catalog.shipped)
        let sent = try sourceDesk.send(mover, photoID: catalog.photos[0].photoID, change: .rotation(degrees: 90))
        let decided = try sourceDesk.decide(try sourceDesk.moderator(mover), feedbackID: sent.feedback.feedbackID, accept: true)
        let firstPage = try source.favorites.page(mover, limit: 2, cursor: nil)
        let secondPage = try source.favorites.page(mover, limit: 2, cursor: firstPage.nextCursor)
        let walkPage = try sourceWalks.walk(mover, walkID: walk.walkID, limit: 2, cursor: nil)
        // The token's last use is stored (its first use by this process is stored at once).
        source.tokenUses.waitForFlushes()
        let lastUsed = try Self.lastUsedTimes(source.database)
        #expect(lastUsed.count == 1)

        let copied = try UserDataCopy.copy(fromDataDirectory: directory.path, to: target.url, replacing: false)
        #expect(copied.first { $0.table == "favorites" }?.rows == photoIDs.count)

        let copy = try Accounts(
            store: try PostgresUserDataStore(url: target.url), commonPasswordsPath: commonPasswords, passwordCost: .test)
        #expect(try Self.lastUsedTimes(copy.database) == lastUsed, "tokens.last_used_at copied")
        let copyWalks = Walks(database: copy.database, catalog: { catalog })
        let moved = try copy.sessions.authenticate(token: session.token)
        #expect(try copy.profiles.user(moved).username == "Mover")
        #expect(try copy.favorites.page(moved, limit: 2, cursor: nil) == firstPage)
        #expect(try copy.favorites.page(moved, limit: 2, cursor: firstPage.nextCursor) == secondPage)
        #expect(try copy.recents.list(moved, limit: 10).map(\.photoID) == [photoIDs[0]])
        #expect(try copyWalks.walk(moved, walkID: walk.walkID, limit: 2, cursor: nil) == walkPage)
        let copyDesk = FeedbackDesk(database: copy.database, catalog: catalog.shipped)
        #expect(try copyDesk.feedback(moved, feedbackID: decided.feedbackID) == decided)
        #expect(try copyDesk.moderator(moved).userID == moved.userID)
        #expect(try Self.corrections(copy.database) == [Int64(decided.feedbackID)])
        _ = try copy.login(username: "mover", password: Self.password, clientAddress: "192.0.2.7")
        // New rows continue after the copied sequences: the newest favorite comes first.
        try Result.awaiting { copy.favorites.remove(moved, photoID: photoIDs[0], completion: $0) }
        _ = try Result.awaiting { copy.favorites.save(moved, photoID: photoIDs[0], completion: $0) }
        #expect(try copy.favorites.page(moved, limit: 1, cursor: nil).favorites.map(\.photoID) == [photoIDs[0]])

        #expect(throws: UserDataCopy.CopyError.targetNotEmpty(users: 1)) {
            try UserDataCopy.copy(fromDataDirectory: directory.path, to: target.url, replacing: false)
        }
        for _ in 0..<2 {
            _ = try UserDataCopy.copy(fromDataDirectory: directory.path, to: target.url, replacing: true)
            #expect(try copy.favorites.page(moved, limit: 2, cursor: nil) == firstPage)
            #expect(try copyWalks.walk(moved, walkID: walk.walkID, limit: 2, cursor: nil) == walkPage)
            #expect(try copyDesk.mine(moved, limit: 5, cursor: nil).feedback == [decided])
            #expect(try Self.corrections(copy.database) == [Int64(decided.feedbackID)])
        }
    }

    /// The `feedback_id` of every catalog correction, in order.
    private static func corrections(_ store: any UserDataStore) throws -> [Int64] {
        try store.read { connection in
            try connection.query("SELECT feedback_id FROM catalog_corrections ORDER BY sequence", []) { $0.int64(0) }
        }
    }

    private static func lastUsedTimes(_ store: any UserDataStore) throws -> [Int64] {
        try store.read { connection in
            try connection.query("SELECT last_used_at FROM tokens ORDER BY last_used_at", []) { $0.int64(0) }
        }
    }
}
