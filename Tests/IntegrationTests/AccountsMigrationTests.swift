import Foundation
import SQLite
import Testing
import TestSupport

@testable import Accounts
@testable import UserData

/// An accounts database written by the previous release (schema version 1: users,
/// tokens, favorites) is opened by this server: nothing is lost, and profiles and
/// recents work for its users.
@Suite(.enabled(if: TestDatabase.usesSQLite, "migrates an old accounts.sqlite: SQLite store only")) struct AccountsMigrationTests {
    struct OldUser {
        let username: String
        let password: String
        let token: String
        let favorites: [String]
    }

    @Test func aVersionOneDatabaseKeepsEveryUserTokenAndFavorite() throws {
        let directory = try TemporaryDirectory(prefix: "accounts-migration")
        try SharedCatalog.copy(into: directory.path)
        let photos = ["729011f-a", "723443f-a", "716525f-a", "705740f-a"]
        let users = [
            OldUser(username: "Old.Timer", password: "walked here in 1935", token: AccessToken.generate(), favorites: photos),
            OldUser(username: "second-user", password: "another fine passphrase", token: AccessToken.generate(), favorites: []),
        ]
        try Self.writeVersionOneDatabase(at: directory.file("accounts.sqlite"), users: users)

        let server = try ServerProcess(dataDirectory: directory.path)
        let client = try RawHTTPClient(port: server.port)

        let me = try client.requestJSON("GET", "/users/me", token: users[0].token)
        #expect(me.status == 200, "the old token still works")
        let profile = try me.object()
        #expect(profile["username"] as? String == "Old.Timer")
        #expect(profile["createdAt"] as? String == "2026-11-01T12:00:00Z")
        #expect(profile["favoriteCount"] as? Int == photos.count)
        #expect(profile["displayName"] is NSNull)
        #expect(profile["home"] is NSNull)
        let favorites = try client.requestJSON("GET", "/favorites", token: users[0].token).object()
        let listed = (favorites["favorites"] as? [[String: Any]] ?? []).compactMap { $0["photoID"] as? String }
        #expect(listed == photos.reversed(), "every favorite, in save order")
        #expect(try client.requestJSON("GET", "/users/me", token: users[1].token).status == 200)
        let login = try client.requestJSON(
            "POST", "/users/login", json: #"{"username":"SECOND-USER","password":"another fine passphrase"}"#)
        #expect(login.status == 200, "the old password hash still verifies")

        // The new features, for users of the old schema.
        let patched = try client.requestJSON(
            "PATCH", "/users/me", json: #"{"displayName":"Old Timer","home":{"latitude":40.7,"longitude":-73.99}}"#,
            token: users[0].token)
        #expect(patched.status == 200)
        #expect(try patched.object()["displayName"] as? String == "Old Timer")
        #expect(try client.requestJSON("PUT", "/recents/\(photos[0])", token: users[0].token).status == 200)
        let recents = try client.requestJSON("GET", "/recents", token: users[0].token).object()
        #expect((recents["recents"] as? [[String: Any]])?.count == 1)
        #expect(try client.requestJSON("PUT", "/favorites/\(photos[0])", token: users[0].token).status == 200)
        #expect(try client.requestJSON("PUT", "/favorites/729683f-a", token: users[1].token).status == 201)

        let database = try SQLiteConnection(path: directory.file("accounts.sqlite"), mode: .readOnly)
        #expect(try database.queryFirst("PRAGMA user_version") { $0.int(0) } == SQLiteUserDataSchema.migrator.migrations.count)
        #expect(try database.queryFirst("SELECT count(*) FROM tokens") { $0.int(0) } == 3)
        #expect(try database.queryFirst("SELECT count(*) FROM favorites") { $0.int(0) } == photos.count + 1)

        // The cascade reaches the new table too.
        let deleted = try client.requestJSON(
            "DELETE", "/users/me", json: #"{"password":"walked here in 1935"}"#, token: users[0].token)
        #expect(deleted.status == 204)
        #expect(try database.queryFirst("SELECT count(*) FROM recents") { $0.int(0) } == 0)
        #expect(try database.queryFirst("SELECT count(*) FROM favorites") { $0.int(0) } == 1)
        server.stop()
    }

    /// A database as the previous release left it: only the first migration, rows
    /// written the way that release wrote them.
    private static func writeVersionOneDatabase(at path: String, users: [OldUser]) throws {
        let connection = try SQLiteConnection(path: path)
        try connection.execute("PRAGMA journal_mode = WAL")
        try connection.execute("PRAGMA foreign_keys = ON")
        try Migrator(migrations: Array(SQLiteUserDataSchema.migrator.migrations.prefix(1))).migrate(connection)
        let hasher = try PasswordHasher(cost: .test)
        let created: Int64 = 1_793_534_400  // 2026-11-01T12:00:00Z
        for user in users {
            try connection.execute(
                "INSERT INTO users (username, username_key, password_hash, created_at) VALUES (?, ?, ?, ?)",
                [.text(user.username), .text(user.username.lowercased()), .text(try hasher.hash(user.password, clientAddress: "192.0.2.1").encoded),
                 .integer(created)])
            let userID = connection.lastInsertRowID
            try connection.execute(
                "INSERT INTO tokens (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
                [.blob(try #require(AccessToken.digest(user.token))), .integer(userID), .integer(created),
                 .integer(Int64(Date().timeIntervalSince1970) + 86_400)])
            for (offset, photo) in user.favorites.enumerated() {
                try connection.execute(
                    "INSERT INTO favorites (user_id, photo_id, saved_at) VALUES (?, ?, ?)",
                    [.integer(userID), .text(photo), .integer(created + Int64(offset))])
            }
        }
    }
}
