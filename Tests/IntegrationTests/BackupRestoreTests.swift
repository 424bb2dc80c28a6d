import Dispatch
import Foundation
import Postgres
import SQLite
import Synchronization
import Testing
import TestSupport

/// `past-nyc backup` and `restore`, run as the operator runs them, next to real servers.
/// Under load: four clients save favorites and add walk points while `backup` runs;
/// the restored copy holds every write acknowledged before the backup started, and
/// every walk's point count equals its route's length (on SQLite, and on PostgreSQL
/// with PAST_NYC_TEST_DATABASE_URL and pg_dump). Then the refusals: a target holding
/// user data, a missing source or target, a corrupt or foreign file, a running server.
@Suite(.serialized) struct BackupRestoreTests {
    static let clients = 4
    static let stepsPerClient = 160
    /// Acknowledged writes (of all clients) after which the backup starts.
    static let backupAfter = 60
    static let password = "a copy of Mulberry Bend"

    /// What one client saw acknowledged before the backup started.
    struct Acknowledged {
        var favorites: [String] = []
        var walkPoints = 0
    }

    struct Writer {
        let token: String
        let walkID: String
    }

    static func storage(_ directory: String, _ database: TestDatabase?) -> [String] {
        ["--data-dir", directory] + (database.map { ["--database-url", $0.url] } ?? [])
    }

    static var pgDumpIsInstalled: Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .contains { FileManager.default.isExecutableFile(atPath: "\($0)/pg_dump") }
    }

    @Test(.enabled(if: TestDatabase.usesSQLite || pgDumpIsInstalled, "PostgreSQL's backup needs pg_dump and pg_restore on PATH"))
    func aBackupUnderLoadHoldsEveryWriteAcknowledgedBeforeIt() throws {
        let points = WalkCrashTests.points(try SharedCatalog.catalog())
        let database = try TestDatabase.make()
        let directory = try TemporaryDirectory(prefix: "backup-load")
        try SharedCatalog.copy(into: directory.path)
        let server = try ServerProcess(dataDirectory: directory.path, databaseURL: database?.url)
        let photoIDs = try SignedInClient(port: server.port, username: "backup-browser").catalogPhotoIDs(Self.stepsPerClient / 2)
        var writers: [Writer] = []
        for client in 0..<Self.clients {
            let walker = try WalkClient(port: server.port, username: "backup-writer-\(client)")
            writers.append(Writer(token: walker.token, walkID: try walker.startWalk()))
        }

        let acknowledged = Mutex<[Acknowledged]>(Array(repeating: Acknowledged(), count: Self.clients))
        let backupStarted = Atomic<Bool>(false)
        let stop = Atomic<Bool>(false)
        let total = Atomic<Int>(0)
        let afterBackupStarted = Atomic<Int>(0)
        let enough = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        let port = server.port
        for (client, writer) in writers.enumerated() {
            DispatchQueue.global().async(group: group) {
                guard let connection = try? RawHTTPClient(port: port, timeout: .seconds(30)) else { return }
                for step in 0..<Self.stepsPerClient where !stop.load(ordering: .sequentiallyConsistent) {
                    let isFavorite = step % 2 == 0
                    let photoID = photoIDs[step / 2]
                    let point = points[(step / 2) % points.count]
                    let response =
                        isFavorite
                        ? try? connection.requestJSON("PUT", "/favorites/\(photoID)", token: writer.token)
                        : try? connection.requestJSON(
                            "POST", "/walks/\(writer.walkID)/points", json: #"{"latitude":\#(point.0),"longitude":\#(point.1)}"#,
                            token: writer.token)
                    guard let response, (200..<300).contains(response.status) else { return }
                    // Read after the answer arrived: false means the backup had not started then.
                    if backupStarted.load(ordering: .sequentiallyConsistent) {
                        afterBackupStarted.add(1, ordering: .relaxed)
                    } else {
                        acknowledged.withLock { acks in
                            if isFavorite { acks[client].favorites.append(photoID) }
                            if !isFavorite && response.status == 201 { acks[client].walkPoints += 1 }
                        }
                    }
                    if total.add(1, ordering: .relaxed).newValue == Self.backupAfter { enough.signal() }
                }
            }
        }
        try #require(enough.wait(timeout: .now() + 180) == .success, "the clients could not make \(Self.backupAfter) writes")
        backupStarted.store(true, ordering: .sequentiallyConsistent)
        let backupFile = directory.file("user-data.backup")
        let backup = try ServerProcess.runToExit(["backup", "--to", backupFile] + Self.storage(directory.path, database))
        stop.store(true, ordering: .sequentiallyConsistent)
        group.wait()
        try #require(backup.status == 0, "\(backup.errorOutput)")
        #expect(server.stop() == 0)
        let acks = acknowledged.withLock { $0 }
        print("backup under load: \(total.load(ordering: .relaxed)) writes, \(afterBackupStarted.load(ordering: .relaxed)) after the backup started")

        let restored = try TemporaryDirectory(prefix: "backup-restored")
        try SharedCatalog.copy(into: restored.path)
        if let database {
            // The store lost: its schema dropped. The restore recreates it.
            let connection = try PostgresConnection(url: database.url)
            let schema = try connection.execute("SELECT quote_ident(current_schema())").text(row: 0, column: 0)
            try connection.execute("DROP SCHEMA \(schema) CASCADE")
        }
        let restore = try ServerProcess.runToExit(["restore", "--from", backupFile] + Self.storage(restored.path, database))
        try #require(restore.status == 0, "\(restore.errorOutput)")

        let copy = try ServerProcess(dataDirectory: restored.path, databaseURL: database?.url)
        for (client, writer) in writers.enumerated() {
            // The tokens are user data too: the restored copy knows them.
            let connection = try RawHTTPClient(port: copy.port, timeout: .seconds(30))
            let favorites = try connection.requestJSON("GET", "/favorites?limit=200", token: writer.token)
            try #require(favorites.status == 200, "\(favorites.bodyText)")
            let saved = Set((try favorites.object()["favorites"] as? [[String: Any]] ?? []).compactMap { $0["photoID"] as? String })
            #expect(Set(acks[client].favorites).isSubset(of: saved), "writer \(client): favorites missing from the backup")

            let walks = try connection.requestJSON("GET", "/walks?limit=100", token: writer.token)
            let listed = try #require(try walks.object()["walks"] as? [[String: Any]])
            #expect(listed.count == 1)
            for walk in listed {
                let walkID = try #require(walk["walkID"] as? String)
                let pointCount = try #require(walk["pointCount"] as? Int)
                let route = try connection.requestJSON("GET", "/walks/\(walkID)/route", token: writer.token)
                #expect((try route.object()["points"] as? [Any])?.count == pointCount, "walk \(walkID): points and route differ")
                #expect(pointCount >= acks[client].walkPoints, "writer \(client): walk points missing from the backup")
            }
        }
        #expect(copy.stop() == 0)

        if database != nil {
            // A file that is not a dump, and a missing one, are refused even with --replace.
            let text = restored.file("text.backup")
            try Data("not a pg_dump archive".utf8).write(to: URL(fileURLWithPath: text))
            for (file, message) in [(text, "pg_restore failed"), (restored.file("missing.backup"), restored.file("missing.backup"))] {
                let run = try ServerProcess.runToExit(["restore", "--from", file, "--replace"] + Self.storage(restored.path, database))
                #expect(run.status != 0, "\(file)")
                #expect(run.errorOutput.contains(message), "\(file): \(run.errorOutput)")
            }
            // The data is still there: a restore without --replace is refused.
            let refused = try ServerProcess.runToExit(["restore", "--from", backupFile] + Self.storage(restored.path, database))
            #expect(refused.status != 0)
            #expect(refused.errorOutput.contains("already holds user data"), "\(refused.errorOutput)")
            let replaced = try ServerProcess.runToExit(
                ["restore", "--from", backupFile, "--replace"] + Self.storage(restored.path, database))
            #expect(replaced.status == 0, "\(replaced.errorOutput)")
        }
    }

    /// Registers `username` in a server on `directory`, stops it, and returns the folder.
    private static func userData(_ username: String) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory(prefix: "backup-\(username)")
        try SharedCatalog.copy(into: directory.path)
        let server = try ServerProcess(dataDirectory: directory.path)
        _ = try SignedInClient(port: server.port, username: username)
        #expect(server.stop() == 0)
        return directory
    }

    private static func usernames(_ directory: TemporaryDirectory) throws -> [String] {
        try SQLiteConnection(path: directory.file("accounts.sqlite"), mode: .readOnly)
            .query("SELECT username FROM users ORDER BY id") { $0.text(0) }
    }

    private static func contents(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test(.enabled(if: TestDatabase.usesSQLite, "the refusals of the SQLite store"))
    func refusalsChangeNothing() throws {
        let keeper = try Self.userData("keeper")
        let backupFile = keeper.file("keeper.backup")
        let backup = try ServerProcess.runToExit(["backup", "--data-dir", keeper.path, "--to", backupFile])
        try #require(backup.status == 0, "\(backup.errorOutput)")
        // One self-contained file, nothing half-written beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: keeper.path).filter { $0.contains("keeper.backup") } == ["keeper.backup"])

        let empty = try TemporaryDirectory(prefix: "backup-empty")
        let cases: [(arguments: [String], message: String)] = [
            (["backup", "--data-dir", empty.path, "--to", empty.file("x.backup")], empty.file("accounts.sqlite")),
            (["backup", "--data-dir", keeper.path, "--to", empty.file("missing/x.backup")], empty.file("missing")),
            (["restore", "--data-dir", empty.path, "--from", empty.file("missing.backup")], empty.file("missing.backup")),
            (["restore", "--data-dir", keeper.path, "--from", backupFile], "already holds user data; pass --replace"),
        ]
        let before = try Self.contents(keeper.file("accounts.sqlite"))
        for (arguments, message) in cases {
            let run = try ServerProcess.runToExit(arguments)
            #expect(run.status != 0, "\(arguments)")
            #expect(run.errorOutput.contains(message), "\(arguments): \(run.errorOutput)")
        }
        #expect(try Self.contents(keeper.file("accounts.sqlite")) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: empty.path).isEmpty)

        // --replace puts the backup in place of other user data.
        let other = try Self.userData("other")
        #expect(try Self.usernames(other) == ["other"])
        let replaced = try ServerProcess.runToExit(["restore", "--data-dir", other.path, "--from", backupFile, "--replace"])
        #expect(replaced.status == 0, "\(replaced.errorOutput)")
        #expect(try Self.usernames(other) == ["keeper"])

        // A missing data directory is made.
        let fresh = empty.file("fresh/data")
        let restored = try ServerProcess.runToExit(["restore", "--data-dir", fresh, "--from", backupFile])
        #expect(restored.status == 0, "\(restored.errorOutput)")
        #expect(FileManager.default.fileExists(atPath: fresh + "/accounts.sqlite"))
    }

    @Test(.enabled(if: TestDatabase.usesSQLite, "the refusals of the SQLite store"))
    func aCorruptOrForeignFileIsRefused() throws {
        let keeper = try Self.userData("keeper")
        let backupFile = keeper.file("keeper.backup")
        try #require(try ServerProcess.runToExit(["backup", "--data-dir", keeper.path, "--to", backupFile]).status == 0)
        var damaged = try Self.contents(backupFile)
        let pageSize = 4096
        try #require(damaged.count >= 4 * pageSize)
        damaged.replaceSubrange(pageSize..<(3 * pageSize), with: Data(repeating: 0xA5, count: 2 * pageSize))
        let files = try TemporaryDirectory(prefix: "backup-files")
        try damaged.write(to: URL(fileURLWithPath: files.file("damaged.backup")))
        try Data("not a database at all, only text".utf8).write(to: URL(fileURLWithPath: files.file("text.backup")))
        let foreign = try SQLiteConnection(path: files.file("foreign.backup"))
        try foreign.execute("CREATE TABLE t (x)")

        for name in ["damaged.backup", "text.backup", "foreign.backup"] {
            let target = try TemporaryDirectory(prefix: "backup-target")
            let run = try ServerProcess.runToExit(["restore", "--data-dir", target.path, "--from", files.file(name)])
            #expect(run.status != 0, "\(name)")
            #expect(run.errorOutput.contains("\(files.file(name)) is not a sound backup"), "\(name): \(run.errorOutput)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).isEmpty, "\(name)")
        }
    }

    @Test(.enabled(if: TestDatabase.usesSQLite, "the lock of the SQLite store's data directory"))
    func restoreRefusesADirectoryAServerRunsOn() throws {
        let keeper = try Self.userData("keeper")
        let backupFile = keeper.file("keeper.backup")
        try #require(try ServerProcess.runToExit(["backup", "--data-dir", keeper.path, "--to", backupFile]).status == 0)
        let before = try Self.contents(keeper.file("accounts.sqlite"))
        let server = try ServerProcess(dataDirectory: keeper.path)
        let run = try ServerProcess.runToExit(["restore", "--data-dir", keeper.path, "--from", backupFile, "--replace"])
        #expect(run.status != 0)
        #expect(run.errorOutput.contains("a past-nyc server is running on \(keeper.path)"), "\(run.errorOutput)")
        #expect(server.stop() == 0)
        #expect(try Self.contents(keeper.file("accounts.sqlite")) == before)
    }
}
