import Dispatch
import Foundation
import SQLite
import Synchronization
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
        #expect(unknown.body == wrong.body)
        #expect(Array(unknown.headers).map(\.name) == Array(wrong.headers).map(\.name))
        #expect(Array(unknown.headers).map(\.value) == Array(wrong.headers).map(\.value))
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
        // One slot, no queue, and a cost slow enough that the first hash is still running.
        let harness = try AccountsHarness(cost: ScryptCost(log2Rounds: 16, blockSize: 8, parallelism: 1), concurrentHashes: 1, queuedHashes: 0)
        let hasher = harness.accounts.hasher
        let done = DispatchSemaphore(value: 0)
        let statuses = StatusBox()
        let router = harness.router
        DispatchQueue.global().async {
            let body = Array(#"{"username": "first", "password": "correct horse battery"}"#.utf8)
            statuses.set(try? AccountsHarness.send(.post, "/users", rawBody: body, through: router).status)
            done.signal()
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while hasher.hashesInFlight == 0, ContinuousClock.now < deadline {
            sched_yield()
        }
        #expect(hasher.hashesInFlight == 1)

        let started = ContinuousClock.now
        let busy = try harness.send(.post, "/users", json: ["username": "second", "password": "correct horse battery"])
        let elapsed = ContinuousClock.now - started
        #expect(busy.status == 503)
        #expect(busy.headers["Retry-After"] == "1")
        #expect(elapsed < .milliseconds(50))
        #expect(try harness.login("first", from: "198.51.100.7").status == 503)

        done.wait()
        #expect(statuses.value == 201)
        #expect(hasher.hashesInFlight == 0)
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

/// A status written by one thread and read by another.
final class StatusBox: Sendable {
    private let status = Mutex<Int?>(nil)

    var value: Int? { status.withLock { $0 } }

    func set(_ value: Int?) {
        status.withLock { $0 = value }
    }
}
