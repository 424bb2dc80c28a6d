import Dispatch
import Synchronization
import Testing
import TestSupport
import UserData

/// `SQLiteUserDataStore.groupWrite`: many writers at once share commits, yet each
/// write stands alone: one that throws is rolled back by itself, and each caller
/// gets its own result.
@Suite(.enabled(if: TestDatabase.usesSQLite, "group commit is the SQLite store's (PostgreSQL groups commits itself)")) struct GroupCommitTests {
    struct Refused: Error {}

    @Test func aFailingGroupedWriteRollsBackAloneAndTheOthersCommit() throws {
        let harness = try AccountsHarness()
        let database = harness.accounts.database
        try database.write { try $0.execute("CREATE TABLE grouped (n INTEGER PRIMARY KEY, square INTEGER NOT NULL) STRICT") }
        let results = Mutex<[Int: Result<Int, Refused>]>([:])
        DispatchQueue.concurrentPerform(iterations: 300) { n in
            let result: Result<Int, Refused>
            do {
                let written = try database.groupWrite { connection in
                    try connection.execute("INSERT INTO grouped (n, square) VALUES (?, ?)", [.integer(Int64(n)), .integer(Int64(n * n))])
                    // Every third write fails after writing: its row must not survive.
                    if n % 3 == 0 { throw Refused() }
                    return try connection.queryFirst("SELECT square FROM grouped WHERE n = ?", [.integer(Int64(n))]) { $0.int(0) } ?? -1
                }
                result = .success(written)
            } catch {
                result = .failure(Refused())
            }
            results.withLock { $0[n] = result }
        }
        let outcomes = results.withLock { $0 }
        #expect(outcomes.count == 300)
        for (n, outcome) in outcomes {
            switch outcome {
            case .success(let square): #expect(n % 3 != 0 && square == n * n, "write \(n)")
            case .failure: #expect(n % 3 == 0, "write \(n) failed")
            }
        }
        let stored = try database.read { connection in
            try connection.query("SELECT n FROM grouped ORDER BY n") { $0.int(0) }
        }
        #expect(stored == (0..<300).filter { $0 % 3 != 0 })
    }
}
