import Foundation
import Testing
import TestSupport
import UserData

@testable import Accounts

/// At most 100 live tokens per user: a login past that revokes the least recently used
/// (contract: Fair use, Per user); each token's last use stored at most once a minute.
@Suite struct TokenLimitTests {
    @Test func theHundredAndFirstLoginRevokesTheLeastRecentlyUsedToken() throws {
        let harness = try AccountsHarness()
        let accounts = harness.accounts
        var tokens = [try harness.register("collector")]
        for _ in 1..<Accounts.tokensPerUser {
            let login = try harness.login("collector")
            try #require(login.status == 200)
            tokens.append(login.token)
        }
        // Every token used once, a minute apart, in a shuffled order: the first used is
        // the least recently used.
        var random = SeededGenerator(seed: 101)
        let order = Array(tokens.indices).shuffled(using: &random)
        for index in order {
            harness.clock.advance(by: 60)
            _ = try accounts.sessions.authenticate(token: tokens[index])
            accounts.tokenUses.waitForFlushes()
        }

        harness.clock.advance(by: 60)
        let newest = try harness.login("collector")
        try #require(newest.status == 200)
        #expect(throws: AccountsError.invalidToken) { try accounts.sessions.authenticate(token: tokens[order[0]]) }
        #expect(try Self.liveTokens(harness) == Accounts.tokensPerUser)

        // The next login revokes the next least recently used, not the one just issued.
        harness.clock.advance(by: 60)
        try #require(try harness.login("collector").status == 200)
        #expect(throws: AccountsError.invalidToken) { try accounts.sessions.authenticate(token: tokens[order[1]]) }
        for index in order.dropFirst(2) {
            _ = try accounts.sessions.authenticate(token: tokens[index])
        }
        _ = try accounts.sessions.authenticate(token: newest.token)
        #expect(try Self.liveTokens(harness) == Accounts.tokensPerUser)
    }

    @Test func aTokenLastUseIsStoredAtMostOnceAMinute() throws {
        let harness = try AccountsHarness()
        let accounts = harness.accounts
        let first = try harness.register("reader")
        let second = try harness.login("reader").token
        let issuedAt = Self.milliseconds(harness.clock.now)

        func use(_ token: String, times: Int) throws {
            for _ in 0..<times {
                _ = try accounts.sessions.authenticate(token: token)
                accounts.tokenUses.waitForFlushes()
            }
        }
        try use(first, times: 10)
        #expect(accounts.tokenUses.storedUses == 1, "the first use this process sees is stored at once")
        harness.clock.advance(by: 30)
        try use(first, times: 10)
        try use(second, times: 1)
        #expect(accounts.tokenUses.storedUses == 2, "first: not again within the minute; second: its first use")
        #expect(try Self.lastUsed(harness, first) == issuedAt)

        harness.clock.advance(by: 29.5)
        try use(first, times: 1)
        #expect(accounts.tokenUses.storedUses == 2)
        harness.clock.advance(by: 0.5)
        try use(first, times: 1)
        #expect(accounts.tokenUses.storedUses == 3)
        #expect(try Self.lastUsed(harness, first) == issuedAt + 60_000)

        // A use not stored yet is stored by the next flush due, whichever token's use starts it.
        harness.clock.advance(by: 30)
        try use(first, times: 1)
        #expect(accounts.tokenUses.storedUses == 3)
        harness.clock.advance(by: 30)
        try use(second, times: 1)
        #expect(accounts.tokenUses.storedUses == 5)
        #expect(try Self.lastUsed(harness, first) == issuedAt + 90_000)
        #expect(try Self.lastUsed(harness, second) == issuedAt + 120_000)
    }

    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }

    static func lastUsed(_ harness: AccountsHarness, _ token: String) throws -> Int64? {
        let digest = try #require(AccessToken.digest(token))
        return try harness.accounts.database.read { connection in
            try connection.queryFirst("SELECT last_used_at FROM tokens WHERE token_hash = ?", [.blob(digest)]) { $0.int64(0) }
        }
    }

    static func liveTokens(_ harness: AccountsHarness) throws -> Int {
        try harness.accounts.database.read { connection in
            try connection.queryFirst("SELECT count(*) FROM tokens", []) { $0.int(0) } ?? 0
        }
    }
}
