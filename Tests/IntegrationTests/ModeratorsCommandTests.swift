import Dispatch
import Foundation
import Testing
import TestSupport

/// `past-nyc moderators add|remove|list`, run as the operator runs them beside running
/// servers: on SQLite one server on the data directory, on PostgreSQL (with
/// PAST_NYC_TEST_DATABASE_URL) two instances on one database. Every instance honours a
/// change within 2 s of the command's exit, without a restart.
@Suite(.serialized) struct ModeratorsCommandTests {
    /// How soon after the command a running server must honour it.
    static let honouredWithin = Duration.seconds(2)

    /// Polls `GET /feedback` on every server until each answers `status`, for at most
    /// `honouredWithin`; returns the servers that did not.
    static func waitUntil(_ status: Int, on clients: [RawHTTPClient], token: String) throws -> [Int] {
        let deadline = ContinuousClock.now + honouredWithin
        var waiting = Set(clients.indices)
        while !waiting.isEmpty, ContinuousClock.now < deadline {
            for index in waiting.sorted() {
                if try clients[index].requestJSON("GET", "/feedback", token: token).status == status { waiting.remove(index) }
            }
        }
        return waiting.sorted()
    }

    @Test func aRoleChangeIsHonouredByEveryRunningInstanceWithinTwoSeconds() throws {
        let database = try TestDatabase.make()
        let directories = try (0..<(database == nil ? 1 : 2)).map { _ in try TemporaryDirectory(prefix: "moderators") }
        for directory in directories { try SharedCatalog.copy(into: directory.path) }
        let servers = try directories.map { try ServerProcess(dataDirectory: $0.path, databaseURL: database?.url) }
        let nominee = try SignedInClient(port: servers[0].port, username: "Nominee")
        let clients = try servers.map { try RawHTTPClient(port: $0.port) }
        let storage = ["--data-dir", directories[0].path] + (database.map { ["--database-url", $0.url] } ?? [])
        for client in clients {
            #expect(try client.requestJSON("GET", "/feedback", token: nominee.token).status == 403)
        }

        let added = try ServerProcess.runCapturingOutput(["moderators", "add", "nominee"] + storage)
        try #require(added.status == 0, "\(added.errorOutput)")
        #expect(added.output == "nominee is a moderator\n")
        #expect(try Self.waitUntil(200, on: clients, token: nominee.token) == [], "instances that kept the old role")
        #expect(try nominee.object("GET", "/users/me")["role"] as? String == "moderator")
        let listed = try ServerProcess.runCapturingOutput(["moderators", "list"] + storage)
        #expect(listed.status == 0 && listed.output == "Nominee\n", "\(listed.errorOutput)")

        let removed = try ServerProcess.runCapturingOutput(["moderators", "remove", "NOMINEE"] + storage)
        try #require(removed.status == 0, "\(removed.errorOutput)")
        #expect(try Self.waitUntil(403, on: clients, token: nominee.token) == [], "instances that kept the old role")
        #expect(try ServerProcess.runCapturingOutput(["moderators", "list"] + storage).output == "")

        let unknown = try ServerProcess.runCapturingOutput(["moderators", "add", "nobody-here"] + storage)
        #expect(unknown.status != 0)
        #expect(unknown.errorOutput.contains("nobody-here"), "\(unknown.errorOutput)")
        for server in servers { #expect(server.stop() == 0) }
        // The folders outlive the servers and commands that use them.
        withExtendedLifetime(directories) {}
    }
}
