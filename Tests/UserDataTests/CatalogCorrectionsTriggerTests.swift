import Postgres
import Testing
import TestSupport
import UserData

/// On PostgreSQL, `catalog_corrections` keeps its rows in commit order and announces
/// them: an insert waits for other open inserts to end before it takes its `sequence`,
/// and its commit notifies every instance's listener (`PostgresChangeListener`, payload
/// `catalog`).
@Suite(.enabled(if: TestDatabase.serverURL != nil, "PostgreSQL only")) struct CatalogCorrectionsTriggerTests {
    static let insert =
        "INSERT INTO catalog_corrections (photo_id, kind, year, accepted_at) VALUES ('705740f-a', 'date', 1931, 0)"

    /// The payloads `listener` heard that are not a user's ID.
    static func catalogNotifications(_ listener: PostgresConnection, waitingUpTo wait: Duration) throws -> [String] {
        try listener.notifications(waitingUpTo: wait).filter { Int64($0) == nil }
    }

    /// On a database of its own: a channel is one database's, and the suites running
    /// beside this one in schemas of the shared database announce their corrections on it
    /// too (`catalog`, which the listener here would take for this test's insert).
    @Test func aCommittedInsertIsAnnouncedOnTheUserDataChannel() throws {
        let database = try #require(try TestDatabase.makeUnshared())
        let store = try PostgresUserDataStore(url: database.url, poolSize: 1)
        let listener = try PostgresConnection(url: database.url)
        _ = try listener.execute("LISTEN past_nyc_user_data")
        let writer = try PostgresConnection(url: database.url)
        _ = try writer.execute("BEGIN")
        _ = try writer.execute(Self.insert)
        #expect(try Self.catalogNotifications(listener, waitingUpTo: .milliseconds(300)).isEmpty, "nothing before the commit")
        _ = try writer.execute("COMMIT")
        var heard: [String] = []
        let deadline = ContinuousClock.now + .seconds(10)
        while heard.isEmpty, ContinuousClock.now < deadline {
            heard = try Self.catalogNotifications(listener, waitingUpTo: .seconds(1))
        }
        #expect(heard == ["catalog"])
        withExtendedLifetime(store) {}
    }

    /// On a database of its own too: an advisory lock is the database's, and another suite's
    /// correction would hold this one's second insert past its `lock_timeout`.
    @Test func anInsertWaitsForTheOpenOnesSoSequencesCommitInOrder() throws {
        let database = try #require(try TestDatabase.makeUnshared())
        let store = try PostgresUserDataStore(url: database.url, poolSize: 1)
        let first = try PostgresConnection(url: database.url)
        let second = try PostgresConnection(url: database.url)
        _ = try first.execute("BEGIN")
        _ = try first.execute(Self.insert)
        _ = try second.execute("SET lock_timeout = '300ms'")
        do {
            _ = try second.execute(Self.insert)
            Issue.record("an insert went ahead of an open one")
        } catch let error as PostgresError {
            #expect(error.sqlState == "55P03", "it waited on the lock: \(error)")
        }
        _ = try first.execute("COMMIT")
        _ = try second.execute(Self.insert)
        let sequences = try second.execute("SELECT sequence FROM catalog_corrections ORDER BY sequence")
        #expect(sequences.rowCount == 2)
        withExtendedLifetime(store) {}
    }
}
