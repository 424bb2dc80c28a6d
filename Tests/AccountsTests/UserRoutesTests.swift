import Crypto
import Foundation
import SQLite
import Testing
import TestSupport

@testable import Accounts

@Suite struct UserRoutesTests {
    @Test func registrationReturnsSessionAndProfile() throws {
        let harness = try AccountsHarness()
        let response = try harness.send(.post, "/users", json: ["username": "Ada.L_1-x", "password": "correct horse battery"])
        #expect(response.status == 201)
        #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
        #expect(response.user["username"] as? String == "Ada.L_1-x")
        #expect(response.user["createdAt"] as? String == "2027-01-15T08:00:00Z")
        #expect(response.user["favoriteCount"] as? Int == 0)
        #expect(response.json["expiresAt"] as? String == "2027-02-14T08:00:00Z")
        #expect(response.token.utf8.count == 43)
        #expect(response.token.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })

        let me = try harness.send(.get, "/users/me", token: response.token)
        #expect(me.status == 200)
        #expect(me.json["username"] as? String == "Ada.L_1-x")
        #expect(me.json["createdAt"] as? String == "2027-01-15T08:00:00Z")
        #expect(me.json["favoriteCount"] as? Int == 0)
    }

    static let invalidRegistrations: [(body: String, field: String)] = [
        (#"{"username": "ab", "password": "correct horse battery"}"#, "username"),
        (#"{"username": "\#(String(repeating: "a", count: 33))", "password": "correct horse battery"}"#, "username"),
        (#"{"username": "has space", "password": "correct horse battery"}"#, "username"),
        (#"{"username": "émile", "password": "correct horse battery"}"#, "username"),
        (#"{"username": "e\u0301mile", "password": "correct horse battery"}"#, "username"),
        (#"{"username": "semi;colon", "password": "correct horse battery"}"#, "username"),
        (#"{"username": "ada", "password": "short12"}"#, "password"),
        (#"{"username": "ada", "password": "\#(String(repeating: "x", count: 257))"}"#, "password"),
        (#"{"username": "ada", "password": "PassWord1"}"#, "password"),
        (#"{"username": "ada", "password": "trustno1"}"#, "password"),
        (#"{"username": "ada", "password": "👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽"}"#, "password"),
        (#"{"password": "correct horse battery"}"#, "username"),
        (#"{"username": "ada"}"#, "password"),
        (#"{"username": 42, "password": "correct horse battery"}"#, "username"),
        (#"{"username": "ada", "password": null}"#, "password"),
        (#"{"username": "ada", "password": ["correct horse battery"]}"#, "password"),
    ]

    @Test(arguments: invalidRegistrations)
    func invalidRegistrationNamesTheField(body: String, field: String) throws {
        let harness = try AccountsHarness()
        let response = try harness.send(.post, "/users", rawBody: Array(body.utf8))
        #expect(response.status == 400)
        #expect(response.detail?.hasPrefix(field) == true, "\(response.detail ?? "")")
    }

    @Test(arguments: [
        ("a.b", 201), (String(repeating: "Z", count: 32), 201), ("ok", 400), ("___", 201),
    ])
    func usernameLengthBounds(username: String, status: Int) throws {
        let harness = try AccountsHarness()
        let response = try harness.send(.post, "/users", json: ["username": username, "password": "correct horse battery"])
        #expect(response.status == status)
    }

    @Test func passwordLengthCountsCharactersAndIsNeverTruncated() throws {
        let harness = try AccountsHarness()
        let emoji = String(repeating: "👍🏽", count: 8)  // 8 Characters, 16 scalars, 64 bytes
        #expect(try harness.send(.post, "/users", json: ["username": "emoji", "password": emoji]).status == 201)
        let long = String(repeating: "k", count: 255) + "1"
        #expect(try harness.send(.post, "/users", json: ["username": "long", "password": long]).status == 201)
        #expect(try harness.login("long", password: String(repeating: "k", count: 255) + "2").status == 401)
        #expect(try harness.login("long", password: long).status == 200)
        #expect(try harness.login("emoji", password: emoji).status == 200)
    }

    static let badBodies: [(rawBody: [UInt8], contentType: String?, status: Int)] = [
        (Array(#"{"username":"ada","password":"correct horse battery"}"#.utf8), "text/plain", 415),
        (Array(#"{"username":"ada","password":"correct horse battery"}"#.utf8), nil, 415),
        (Array(#"{"username":"ada","password":"correct horse battery"}"#.utf8), "application/json-patch", 415),
        (Array(#"{"username":"ada","password":"correct horse battery"}"#.utf8), "Application/JSON ; charset=utf-8", 201),
        (Array(#"{"username":"ada","password":"#.utf8), "application/json", 400),
        (Array(#"["ada","correct horse battery"]"#.utf8), "application/json", 400),
        (Array("".utf8), "application/json", 415),
    ]

    @Test(arguments: badBodies)
    func requestBodiesMustBeJSONObjects(rawBody: [UInt8], contentType: String?, status: Int) throws {
        let harness = try AccountsHarness()
        let response = try harness.send(.post, "/users", rawBody: rawBody, contentType: contentType)
        #expect(response.status == status, "\(response.detail ?? "")")
    }

    @Test func usernamesAreUniqueIgnoringCaseAndLoginAcceptsAnyCase() throws {
        let harness = try AccountsHarness()
        _ = try harness.register("Alice")
        let taken = try harness.send(.post, "/users", json: ["username": "aLICE", "password": "another good one"])
        #expect(taken.status == 409)
        #expect(taken.detail?.contains("username") == true)

        let login = try harness.login("ALICE")
        #expect(login.status == 200)
        #expect(login.user["username"] as? String == "Alice")
    }

    @Test(.enabled(if: TestDatabase.usesSQLite, "reads accounts.sqlite itself: SQLite store only")) func storedRowsHoldNoPasswordOrTokenInTheClear() throws {
        let harness = try AccountsHarness()
        let password = "an unusual passphrase 7"
        let token = try harness.register("keeper", password: password)
        let secondToken = try harness.login("keeper", password: password).token

        let connection = try SQLiteConnection(path: harness.databasePath, mode: .readOnly)
        let stored = try connection.queryFirst("SELECT password_hash FROM users") { $0.text(0) }
        #expect(stored?.hasPrefix("$scrypt$ln=10,r=8,p=1$") == true)
        #expect(stored?.contains(password) == false)
        let digests = try connection.query("SELECT token_hash FROM tokens") { $0.blob(0) }
        #expect(Set(digests) == [Array(SHA256.hash(data: Array(token.utf8))), Array(SHA256.hash(data: Array(secondToken.utf8)))])

        // Nothing anywhere in the database files: main file and write-ahead log.
        var files: [UInt8] = []
        for suffix in ["", "-wal"] {
            if let data = FileManager.default.contents(atPath: harness.databasePath + suffix) { files += data }
        }
        #expect(!files.isEmpty)
        for secret in [password, token, secondToken] {
            #expect(!contains(files, Array(secret.utf8)), "a secret is stored in the clear")
        }
        for raw in [Base64URL.decode(token), Base64URL.decode(secondToken)] {
            #expect(!contains(files, try #require(raw)), "raw token bytes are stored")
        }
    }

    private func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start..<(start + needle.count)].elementsEqual(needle)
        }
    }
}
