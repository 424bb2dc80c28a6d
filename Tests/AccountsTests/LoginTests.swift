import Dispatch
import Foundation
import SQLite
import Testing
import TestSupport

@testable import Accounts

@Suite struct LoginTests {
    @Test func unknownUserAndWrongPasswordAnswerIdentically() throws {
        let harness = try AccountsHarness()
        _ = try harness.register("known")
        let unknown = try harness.login("unknown", from: "198.51.100.1")
        let wrong = try harness.login("known", password: "not the password", from: "198.51.100.2")
        #expect(unknown.status == 401)
        #expect(unknown.status == wrong.status)
        #expect(unknown.title == wrong.title)
        #expect(unknown.detail == wrong.detail)
        #expect(unknown.body == wrong.body && !unknown.body.isEmpty)
        // Every field alike but those that differ from one request to the next whatever it
        // asks: the time and the request's ID.
        func fields(_ response: TestResponse) -> [String] {
            Array(response.headers).filter { !["date", "x-request-id"].contains($0.name.lowercased()) }.map { "\($0.name): \($0.value)" }
        }
        #expect(fields(unknown) == fields(wrong))
        #expect(unknown.headers["WWW-Authenticate"] == #"Bearer realm="past-nyc""#)
    }

    @Test func loginRequiresBothFields() throws {
        let harness = try AccountsHarness()
        let missing = try harness.send(.post, "/users/login", json: ["username": "someone"])
        #expect(missing.status == 400)
        #expect(missing.detail?.hasPrefix("password") == true)
        let mistyped = try harness.send(.post, "/users/login", json: ["username": ["a"], "password": "x"])
        #expect(mistyped.status == 400)
        #expect(mistyped.detail?.hasPrefix("username") == true)
    }

    @Test func failedLoginsAreThrottledPerUsernameAndAddress() throws {
        let harness = try AccountsHarness()
        _ = try harness.register("target")
        _ = try harness.register("bystander")
        for _ in 0..<5 {
            #expect(try harness.login("target", password: "guess guess guess", from: "203.0.113.9").status == 401)
        }
        // Even the right password is refused now, from that address, in any case of the name.
        let throttled = try harness.login("TARGET", from: "203.0.113.9")
        #expect(throttled.status == 429)
        #expect(throttled.headers["Retry-After"] == "900")

        // Per pair: the owner elsewhere and other users from the same address still get in.
        #expect(try harness.login("target", from: "203.0.113.10").status == 200)
        #expect(try harness.login("bystander", from: "203.0.113.9").status == 200)

        harness.clock.advance(by: 600)
        let later = try harness.login("target", from: "203.0.113.9")
        #expect(later.status == 429)
        #expect(later.headers["Retry-After"] == "300")
        harness.clock.advance(by: 300)
        #expect(try harness.login("target", from: "203.0.113.9").status == 200)
    }

    @Test func unknownUsernamesAreThrottledToo() throws {
        let harness = try AccountsHarness()
        for _ in 0..<5 {
            #expect(try harness.login("nobody", from: "203.0.113.9").status == 401)
        }
        #expect(try harness.login("nobody", from: "203.0.113.9").status == 429)
    }

    @Test func aSuccessfulLoginResetsTheCount() throws {
        let harness = try AccountsHarness()
        _ = try harness.register("forgetful")
        for _ in 0..<4 {
            #expect(try harness.login("forgetful", password: "guess guess guess").status == 401)
        }
        #expect(try harness.login("forgetful").status == 200)
        for _ in 0..<4 {
            #expect(try harness.login("forgetful", password: "guess guess guess").status == 401)
        }
        #expect(try harness.login("forgetful").status == 200)
    }

    @Test func aFullHasherAnswers503AtOnce() throws {
        // One slot, no queue; the test holds the slot itself, so it stays full for as long
        // as the test needs, however the machine schedules the threads.
        let harness = try AccountsHarness(concurrentHashes: 1, queuedHashes: 0)
        _ = try harness.register("first")
        let hasher = harness.accounts.hasher
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let released = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? hasher.withSlot(clientAddress: "198.51.100.200") {
                holding.signal()
                // Bounded, so a 503 that wrongly waited for the slot fails the checks below instead of hanging.
                _ = release.wait(timeout: .now() + 60)
                return []
            }
            released.signal()
        }
        try #require(holding.wait(timeout: .now() + 60) == .success)

        let busy = try harness.send(.post, "/users", json: ["username": "second", "password": "correct horse battery"])
        #expect(busy.status == 503)
        #expect(busy.headers["Retry-After"] == "1")
        #expect(try harness.login("first", from: "198.51.100.7").status == 503)
        // Both were answered while the slot was still held: neither waited for it.
        #expect(hasher.hashesInFlight == 1)

        release.signal()
        released.wait()
        #expect(hasher.hashesInFlight == 0)
        #expect(try harness.login("first", from: "198.51.100.7").status == 200)
    }

    @Test(.enabled(if: TestDatabase.usesSQLite, "reads accounts.sqlite itself: SQLite store only")) func outdatedHashesAreRedoneOnLogin() throws {
        let harness = try AccountsHarness(cost: ScryptCost(log2Rounds: 4, blockSize: 8, parallelism: 1))
        _ = try harness.register("veteran")
        try harness.reopen(cost: .test)
        #expect(try harness.login("Veteran").status == 200)
        let connection = try SQLiteConnection(path: harness.databasePath, mode: .readOnly)
        let stored = try connection.queryFirst("SELECT password_hash FROM users") { $0.text(0) }
        #expect(stored?.hasPrefix("$scrypt$ln=10,r=8,p=1$") == true)
        #expect(try harness.login("veteran").status == 200)
    }
}
