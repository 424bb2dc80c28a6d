import Dispatch
import Foundation
import HTTPServer
import Synchronization
import Testing
import TestSupport

@testable import Accounts

/// One client address has at most 2 password hashes running or queued (contract: Fair
/// use, Password hashing), and its flood never makes another address's request a 503.
@Suite struct HashingLimitTests {
    @Test func aThirdHashAtOnceFromOneAddressIs429() throws {
        let harness = try AccountsHarness()
        _ = try harness.register("owner")
        let token = try harness.register("mover")
        let flooder = "203.0.113.90"
        let held = try HeldHashes(2, from: flooder, in: harness.accounts.hasher)
        defer { held.release() }

        let refused = try harness.login("owner", from: flooder)
        #expect(refused.status == 429)
        #expect(refused.headers["Retry-After"] == "1")
        #expect(refused.detail?.hasPrefix("your address already has as many password checks in progress") == true)
        // Every operation that hashes is bounded the same way.
        let registration = try harness.send(
            .post, "/users", json: ["username": "newcomer", "password": "correct horse battery"], from: flooder)
        #expect(registration.status == 429)
        let change = try harness.send(
            .put, "/users/me/password",
            json: ["currentPassword": "correct horse battery", "newPassword": "another horse battery"], token: token,
            from: flooder)
        #expect(change.status == 429)
        let deletion = try harness.send(.delete, "/users/me", json: ["password": "correct horse battery"], token: token, from: flooder)
        #expect(deletion.status == 429)
        #expect(harness.refusals.counts[RefusalRule("hashes-per-client")] == 4)
        // Refused before the hasher: the address still has exactly its two.
        #expect(harness.accounts.hasher.hashesInFlight == 2)
        #expect(harness.accounts.hasher.hashesInFlight(clientAddress: flooder) == 2)
    }

    @Test func anotherAddressIsNever503WhileOneFloods() throws {
        // The hasher as `serve` sizes it: 2 running, 4 queued.
        let harness = try AccountsHarness()
        _ = try harness.register("owner")
        let hasher = harness.accounts.hasher
        let flooder = "203.0.113.91"
        let held = try HeldHashes(2, from: flooder, in: hasher)

        // The flood: every request past the address's two is refused at once.
        for _ in 0..<20 {
            #expect(try harness.login("owner", password: "guess guess guess", from: flooder).status == 429)
        }
        // Another address's login waits in the queue behind the flooder's running hashes.
        let outcome = Mutex<Result<Session, any Error>?>(nil)
        let answered = DispatchSemaphore(value: 0)
        let accounts = harness.accounts
        DispatchQueue.global().async {
            let result = Result { try accounts.login(username: "owner", password: "correct horse battery", clientAddress: "198.51.100.91") }
            outcome.withLock { $0 = result }
            answered.signal()
        }
        try Self.waitUntil { hasher.hashesInFlight == 3 }
        #expect(outcome.withLock { $0 == nil }, "queued, not refused")
        for _ in 0..<5 {
            #expect(try harness.login("owner", from: flooder).status == 429)
        }
        held.release()
        #expect(answered.wait(timeout: .now() + 60) == .success)
        let session = try #require(try outcome.withLock { $0 }?.get())
        #expect(session.user.username == "owner")
    }

    @Test func theLimitCanBeLifted() throws {
        var limits = AccountLimits()
        limits.hashesPerClient = 0
        let harness = try AccountsHarness(concurrentHashes: 3, limits: limits)
        let held = try HeldHashes(3, from: "203.0.113.92", in: harness.accounts.hasher)
        #expect(harness.accounts.hasher.hashesInFlight(clientAddress: "203.0.113.92") == 3)
        held.release()
    }

    /// Polls `condition` (an observable state, not a time) for up to a minute.
    static func waitUntil(_ condition: () -> Bool) throws {
        let deadline = Date() + 60
        while !condition() {
            guard Date() < deadline else { throw HeldHashes.HoldError.notAdmitted }
            usleep(1_000)
        }
    }
}
