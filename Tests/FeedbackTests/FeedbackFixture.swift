import Accounts
import Catalog
import Feedback
import Foundation
import TestSupport
import UserData

/// What the feedback store tests stand on: a user-data store (the PostgreSQL database
/// when the tests run against PostgreSQL, else SQLite in a temporary directory), its
/// accounts, the shared catalog and a desk over them, on a clock the test moves.
struct FeedbackFixture {
    let directory: TemporaryDirectory
    /// The PostgreSQL database when the tests run against PostgreSQL.
    let database: TestDatabase?
    let accounts: Accounts
    let catalog: PhotoCatalog
    let clock: TestClock
    let desk: FeedbackDesk

    init(prefix: String, dailyLimit: Int = FeedbackRules.dailyLimit) throws {
        directory = try TemporaryDirectory(prefix: prefix)
        database = try TestDatabase.make()
        let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000))
        self.clock = clock
        let store = try UserDataLocation(dataDirectory: directory.path, databaseURL: database?.url).openStore()
        accounts = try Accounts(
            store: store, commonPasswordsPath: PackageRoot.path + "/Data/common-passwords.txt", passwordCost: .test,
            clock: { clock.now })
        catalog = try SharedCatalog.catalog()
        desk = FeedbackDesk(database: store, catalog: catalog.shipped, dailyLimit: dailyLimit, clock: { clock.now })
    }

    var store: any UserDataStore { accounts.database }

    /// A photo of the catalog, the `index`-th.
    func photoID(_ index: Int) -> String {
        catalog.photos[index].photoID
    }

    /// The first photo of the catalog.
    var photoID: String { photoID(0) }

    /// A newly registered user, signed in.
    func user(_ name: String) throws -> AuthenticatedUser {
        let session = try accounts.register(username: name, password: "the photo is sideways", clientAddress: "192.0.2.1")
        return try accounts.sessions.authenticate(token: session.token)
    }

    /// A newly registered user the operator named a moderator.
    func moderator(_ name: String) throws -> Moderator {
        let user = try user(name)
        try UserRoles.assign(.moderator, toUsername: name, in: store)
        return try desk.moderator(user)
    }

    /// Every row of `catalog_corrections`, in order: (photo, kind, feedback).
    func corrections() throws -> [(photoID: String, kind: String, feedbackID: Int64?)] {
        try store.read { connection in
            try connection.query("SELECT photo_id, kind, feedback_id FROM catalog_corrections ORDER BY sequence", []) {
                ($0.text(0), $0.text(1), $0.isNull(2) ? nil : $0.int64(2))
            }
        }
    }
}
