import Accounts
import Catalog
import TestSupport
import UserData

/// What the walks' store tests stand on: a user-data store (the PostgreSQL database
/// when the tests run against PostgreSQL, else SQLite in a temporary directory), its
/// accounts, and the shared catalog.
struct WalksFixture {
    let directory: TemporaryDirectory
    /// The PostgreSQL database when the tests run against PostgreSQL.
    let database: TestDatabase?
    let accounts: Accounts
    let catalog: PhotoCatalog

    init(prefix: String) throws {
        directory = try TemporaryDirectory(prefix: prefix)
        database = try TestDatabase.make()
        accounts = try Accounts(
            store: UserDataLocation(dataDirectory: directory.path, databaseURL: database?.url).openStore(), commonPasswordsPath: PackageRoot.path + "/Data/common-passwords.txt", passwordCost: .test)
        catalog = try SharedCatalog.catalog()
    }

    /// A newly registered user, signed in.
    func user(_ name: String) throws -> AuthenticatedUser {
        let session = try accounts.register(username: name, password: "walking the bowery", clientAddress: "192.0.2.1")
        return try accounts.sessions.authenticate(token: session.token)
    }
}
