import Accounts
import Basics
import Foundation
import Testing
import TestSupport

/// The writes that check their bearer token in the write itself (`TokenCheckedWrite`) keep
/// the rules of the writes for an authenticated user. On PostgreSQL those are the stored
/// functions `save_favorite` and `record_view`, the rules a second time in PL/pgSQL; on
/// SQLite the Swift path. The suite runs on each store: on SQLite in `swift test`, on
/// PostgreSQL in CI's PostgreSQL section (`AccountsHarness` takes the store the
/// environment names).
///
/// Two users get the same seeded random saves, removals and views in step, one through
/// its token and the other through its authenticated user, on a small favorite limit and
/// a full recently viewed list with more photos than it holds: every answer, both lists, the
/// profile's count and the change log (tombstones included) must come out the same.
@Suite struct TokenCheckedWriteTests {
    @Test(arguments: [11, 12, 13] as [UInt64]) func bothFormsOfAWriteKeepTheSameRules(seed: UInt64) throws {
        let harness = try AccountsHarness(maximumFavorites: 6)
        let accounts = harness.accounts
        let holderToken = try harness.register("holder")
        let holder = try accounts.sessions.authenticate(token: holderToken)
        let twin = try accounts.sessions.authenticate(token: try harness.register("twin"))
        let holderStart = try accounts.changeLog.changes(holder, since: nil, limit: 100).next
        let twinStart = try accounts.changeLog.changes(twin, since: nil, limit: 100).next
        // A full recently viewed list first, so the random views below push views out of it.
        for index in 0..<Recents.capacity {
            let throughToken = Self.outcome {
                try Result.awaiting { accounts.recents.record(token: holderToken, photoID: "r\(index)", completion: $0) }
            }
            let forUser = Self.outcome {
                try Result.awaiting { accounts.recents.record(twin, photoID: "r\(index)", completion: $0) }
            }
            #expect(throughToken == forUser, "filling: r\(index)")
        }
        var generator = SeededGenerator(seed: seed)
        for step in 0..<300 {
            if step % 30 == 0 { harness.clock.advance(by: 1) }
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<4:
                let photoID = "f\(Int.random(in: 0..<10, using: &generator))"
                let throughToken = Self.outcome {
                    try Result.awaiting { accounts.favorites.save(token: holderToken, photoID: photoID, completion: $0) }
                }
                let forUser = Self.outcome {
                    try Result.awaiting { accounts.favorites.save(twin, photoID: photoID, completion: $0) }
                }
                #expect(throughToken == forUser, "step \(step): saving \(photoID)")
            case 4..<6:
                let photoID = "f\(Int.random(in: 0..<10, using: &generator))"
                let removals = [holder, twin].map { user in
                    Self.outcome {
                        try Result.awaiting { accounts.favorites.remove(user, photoID: photoID, completion: $0) }
                        return true
                    }
                }
                #expect(removals[0] == removals[1], "step \(step): removing \(photoID)")
            default:
                let photoID = "r\(Int.random(in: 0..<(Recents.capacity + 30), using: &generator))"
                let throughToken = Self.outcome {
                    try Result.awaiting { accounts.recents.record(token: holderToken, photoID: photoID, completion: $0) }
                }
                let forUser = Self.outcome {
                    try Result.awaiting { accounts.recents.record(twin, photoID: photoID, completion: $0) }
                }
                #expect(throughToken == forUser, "step \(step): viewing \(photoID)")
            }
        }
        #expect(
            try accounts.favorites.page(holder, limit: 100, cursor: nil) == accounts.favorites.page(twin, limit: 100, cursor: nil))
        #expect(try accounts.recents.list(holder, limit: 1000) == accounts.recents.list(twin, limit: 1000))
        #expect(try accounts.recents.list(holder, limit: 1000).count == Recents.capacity, "the list stayed full")
        #expect(try accounts.profiles.user(holder).favoriteCount == accounts.profiles.user(twin).favoriteCount)
        #expect(
            try accounts.changeLog.changes(holder, since: holderStart, limit: 1000).changes
                == accounts.changeLog.changes(twin, since: twinStart, limit: 1000).changes,
            "the same changes, tombstones included, in the same order")
    }

    /// A token that does not work writes nothing through either write, whatever ended it.
    @Test func aTokenThatDoesNotWorkWritesNothing() throws {
        let harness = try AccountsHarness()
        let accounts = harness.accounts
        let loggedOut = try harness.register("leaver")
        try accounts.sessions.logout(try accounts.sessions.authenticate(token: loggedOut))
        let expiring = try harness.register("sleeper")
        let sleeper = try accounts.sessions.authenticate(token: expiring)
        let deleted = try harness.register("goner")
        try accounts.deleteUser(
            try accounts.sessions.authenticate(token: deleted), password: "correct horse battery", clientAddress: "192.0.2.1")
        harness.clock.advance(by: TimeInterval(Sessions.idleLifetime + 1))
        let unknown = String(repeating: "A", count: loggedOut.count)
        for token in ["not a token", unknown, loggedOut, expiring, deleted] {
            #expect(throws: AccountsError.invalidToken, "saving with \(token.prefix(6))…") {
                try Result.awaiting { accounts.favorites.save(token: token, photoID: "f1", completion: $0) }
            }
            #expect(throws: AccountsError.invalidToken, "viewing with \(token.prefix(6))…") {
                try Result.awaiting { accounts.recents.record(token: token, photoID: "r1", completion: $0) }
            }
        }
        #expect(try accounts.favorites.page(sleeper, limit: 10, cursor: nil).favorites.isEmpty)
        #expect(try accounts.recents.list(sleeper, limit: 10).isEmpty)
    }

    /// What a write answered, comparable: its value, or its error as text.
    static func outcome<Value: Equatable>(_ write: () throws -> Value) -> Result<Value, OutcomeError> {
        do {
            return .success(try write())
        } catch {
            return .failure(OutcomeError(description: String(describing: error)))
        }
    }

    struct OutcomeError: Error, Equatable {
        let description: String
    }
}
