import Foundation
import HTTPServer
import Testing
import TestSupport

@testable import Accounts

/// The failed-login rules per client address (contract: Fair use, Logins), on the store
/// the tests run on: the pair (username, address) refused after 5 failures, the address
/// after 20 whatever the usernames, each until 15 minutes after the first counted failure;
/// a success clears its pair only.
@Suite struct LoginLimitTests {
    static let guess = "guess guess guess"

    @Test func twentyFailuresFromOneAddressRefuseEveryLoginFromIt() throws {
        let harness = try AccountsHarness()
        _ = try harness.register("bystander")
        let attacker = "203.0.113.50"
        // 19 failures over five usernames, none of them five times.
        for failure in 0..<19 {
            #expect(try harness.login("victim\(failure % 5)", password: Self.guess, from: attacker).status == 401)
        }
        #expect(try harness.login("bystander", from: attacker).status == 200, "19 failures refuse nobody")
        harness.clock.advance(by: 60)
        #expect(try harness.login("victim4", password: Self.guess, from: attacker).status == 401)

        // The success above did not clear the address's count: that was the 20th.
        let refused = try harness.login("bystander", from: attacker)
        #expect(refused.status == 429)
        #expect(refused.headers["Retry-After"] == "840", "the first failure leaves the window in 14 minutes")
        #expect(refused.detail == "too many failed logins from your address; try again in 840 s")
        #expect(try harness.login("someone-new", password: Self.guess, from: attacker).status == 429)
        #expect(try harness.login("bystander", from: "203.0.113.51").status == 200, "another address is not affected")
        #expect(harness.refusals.counts[RefusalRule("login-client")] == 2)

        // The first 19 leave the window together, 15 minutes after they were made.
        harness.clock.advance(by: 840)
        #expect(try harness.login("bystander", from: attacker).status == 200)
    }

    @Test func theClientLimitCanBeLifted() throws {
        var limits = AccountLimits()
        limits.loginFailuresPerClient = 0
        let harness = try AccountsHarness(limits: limits)
        _ = try harness.register("bystander")
        for failure in 0..<40 {
            #expect(try harness.login("victim\(failure % 10)", password: Self.guess, from: "203.0.113.52").status == 401)
        }
        #expect(try harness.login("bystander", from: "203.0.113.52").status == 200)
    }

    @Test func aPairRefusedIsRecordedAndOtherAddressesAreNot() throws {
        let harness = try AccountsHarness()
        _ = try harness.register("target")
        // Failures of the same username from many other addresses.
        for address in 0..<10 {
            for _ in 0..<4 {
                #expect(try harness.login("target", password: Self.guess, from: "198.51.100.\(address)").status == 401)
            }
        }
        #expect(try harness.login("target", from: "192.0.2.99").status == 200, "an address that has not failed gets in")
        for _ in 0..<5 {
            #expect(try harness.login("target", password: Self.guess, from: "203.0.113.60").status == 401)
        }
        let refused = try harness.login("target", from: "203.0.113.60")
        #expect(refused.status == 429)
        #expect(refused.detail == "too many failed logins; try again in 900 s")
        #expect(harness.refusals.counts[RefusalRule("login-user")] == 1)
        #expect(harness.refusals.counts[RefusalRule("login-client")] == nil)
    }

    @Test func aSuccessClearsOnlyItsOwnPair() throws {
        let harness = try AccountsHarness()
        _ = try harness.register("first")
        _ = try harness.register("second")
        let address = "203.0.113.70"
        for name in ["first", "second"] {
            for _ in 0..<4 {
                #expect(try harness.login(name, password: Self.guess, from: address).status == 401)
            }
        }
        // The same username's count from another address stays too.
        for _ in 0..<4 {
            #expect(try harness.login("second", password: Self.guess, from: "203.0.113.71").status == 401)
        }
        #expect(try harness.login("first", from: address).status == 200)

        #expect(try harness.login("first", password: Self.guess, from: address).status == 401)
        #expect(try harness.login("first", from: address).status == 200, "first's count started again at zero")
        #expect(try harness.login("second", password: Self.guess, from: address).status == 401)
        #expect(try harness.login("second", from: address).status == 429, "second's four failures still counted")
        #expect(try harness.login("second", password: Self.guess, from: "203.0.113.71").status == 401)
        #expect(try harness.login("second", from: "203.0.113.71").status == 429)
    }

    @Test func theRefusalIsDecidedBeforeAnyHash() throws {
        let harness = try AccountsHarness()
        _ = try harness.register("target")
        for _ in 0..<5 {
            #expect(try harness.login("target", password: Self.guess, from: "203.0.113.80").status == 401)
        }
        // Every slot of the address's share held: a refusal that hashed first would be a
        // hashing 429 instead (or wait for a slot).
        let held = try HeldHashes(2, from: "203.0.113.80", in: harness.accounts.hasher)
        defer { held.release() }
        let refused = try harness.login("target", from: "203.0.113.80")
        #expect(refused.status == 429)
        #expect(refused.detail == "too many failed logins; try again in 900 s")
    }
}

/// The in-memory counter's bound: whatever the keys sent, the table is pruned of keys
/// with nothing left in the window before it outgrows twice the keys still alive.
@Suite struct SlidingWindowCounterTests {
    @Test func theTableHoldsAtMostTwiceTheKeysOfTheLastTwoWindows() {
        let threshold = 100
        let counter = SlidingWindowCounter<String>(SlidingWindow(limit: 3, window: 60), pruneThreshold: threshold)
        var now = Date(timeIntervalSince1970: 1_000_000)
        var largestExcess = 0
        for round in 0..<5 {
            for key in 0..<1_000 {
                counter.record("\(round)-\(key)", now: now)
                let recent = (round > 0 ? 1_000 : 0) + key + 1
                largestExcess = max(largestExcess, counter.keyCount - max(threshold, 2 * recent))
            }
            now += 61
        }
        #expect(largestExcess <= 0)
    }

    @Test(arguments: 0..<20) func retryAfterMatchesABruteForceTwin(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let rule = SlidingWindow(limit: Int.random(in: 1...6, using: &random), window: 100)
        let times = (0..<Int.random(in: 0...12, using: &random)).map { _ in Double(Int.random(in: 0...300, using: &random)) }
        let now = 300.0
        // The brute force: the first whole second from which one more event fits.
        let twin = (0...1_000).first { wait in
            times.filter { $0 > now + Double(wait) - rule.window }.count < rule.limit
        }
        let answer = rule.retryAfter(times, now: now)
        #expect(answer == (twin == 0 ? nil : twin), "times \(times.sorted()), limit \(rule.limit)")
    }
}
