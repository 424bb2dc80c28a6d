import Accounts
import HTTPServer
import Testing
import TestSupport

/// `--user-write-rate` over the routes, on the harness's clock: each user's writes
/// drain one bucket of 10 × the rate, refilled at the rate; a refused write is a 429
/// with Retry-After that writes nothing.
@Suite struct UserWriteRateTests {
    @Test func aBurstOfFiveHundredThenFiftyASecondPerUserAcrossTokens() throws {
        var options = AccountsHarness.Options()
        options.userWriteRate = 50
        let harness = try AccountsHarness(options)
        let first = try harness.register("busy-writer")
        let second = try harness.login("busy-writer").token
        let other = try harness.register("other-writer")

        // The burst: 500 writes, alternating between the user's two tokens.
        for index in 0..<500 {
            let response = try harness.send(
                .put, "/recents/p\(index % 300)", token: index.isMultiple(of: 2) ? first : second)
            try #require(response.status == 200, "write \(index): \(response.status)")
        }
        for token in [first, second] {
            let refused = try harness.send(.put, "/favorites/p7", token: token)
            #expect(refused.status == 429)
            #expect(refused.headers["Retry-After"] == "1")
            #expect(refused.detail == "a user writes at most 50 times a second on average, in bursts of up to 500; try again in 1 s")
        }
        // Refused before the write: nothing was saved.
        #expect(try harness.send(.get, "/favorites/p7", token: first).status == 404)
        // Reads are not writes; another user has a bucket of their own.
        #expect(try harness.send(.get, "/recents", token: second).status == 200)
        #expect(try harness.send(.put, "/favorites/p7", token: other).status == 201)
        #expect(harness.refusals.counts[RefusalRule("user-writes")] == 2)

        // A second refills 50 writes, and no more.
        harness.clock.advance(by: 1)
        for index in 0..<50 {
            let response = try harness.send(.put, "/favorites/p\(index)", token: index.isMultiple(of: 2) ? first : second)
            try #require(response.status == 201, "write \(index) after a second: \(response.status)")
        }
        #expect(try harness.send(.delete, "/favorites/p0", token: first).status == 429)
        #expect(try harness.send(.get, "/favorites/p0", token: first).status == 200)
        // Ten quiet seconds fill the bucket again, and not beyond a burst.
        harness.clock.advance(by: 60)
        for index in 0..<500 {
            let response = try harness.send(.patch, "/users/me", json: ["displayName": "n\(index)"], token: first)
            try #require(response.status == 200, "write \(index) after a minute: \(response.status)")
        }
        #expect(try harness.send(.patch, "/users/me", json: ["displayName": "late"], token: second).status == 429)
        #expect(try harness.send(.get, "/users/me", token: second).json["displayName"] as? String == "n499")
    }

    @Test func aTokenThatDoesNotWorkIsA401NotCounted() throws {
        var options = AccountsHarness.Options()
        options.userWriteRate = 1
        let harness = try AccountsHarness(options)
        #expect(try harness.send(.put, "/favorites/p1", token: String(repeating: "A", count: 43)).status == 401)
        #expect(try harness.send(.put, "/favorites/p1", token: "short").status == 401)
        #expect(try harness.send(.put, "/favorites/p1").status == 401)
        #expect(harness.refusals.counts[RefusalRule("user-writes")] == nil)
    }
}
