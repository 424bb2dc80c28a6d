import Foundation
import HTTPServer
import Testing
import TestSupport

@testable import Accounts

/// At most 20 accounts created per client address per hour (contract: Fair use, Accounts).
@Suite struct RegistrationLimitTests {
    @Test func theTwentyFirstRegistrationWithinAnHourIs429() throws {
        let harness = try AccountsHarness()
        let address = "203.0.113.100"
        for number in 0..<10 { _ = try harness.register("early\(number)", from: address) }
        harness.clock.advance(by: 600)
        for number in 0..<10 { _ = try harness.register("late\(number)", from: address) }

        let refused = try harness.send(
            .post, "/users", json: ["username": "one-more", "password": "correct horse battery"], from: address)
        #expect(refused.status == 429)
        #expect(refused.headers["Retry-After"] == "3000", "the first ten leave the hour 50 minutes from now")
        #expect(refused.detail == "too many accounts created from your address; try again in 3000 s")
        #expect(harness.refusals.counts[RefusalRule("registrations")] == 1)
        _ = try harness.register("elsewhere", from: "203.0.113.101")
        // A refused registration created nothing.
        #expect(try harness.login("one-more", from: "203.0.113.102").status == 401)

        harness.clock.advance(by: 2999)
        #expect(try harness.send(
            .post, "/users", json: ["username": "one-more", "password": "correct horse battery"], from: address
        ).status == 429)
        harness.clock.advance(by: 1)
        _ = try harness.register("one-more", from: address)
    }

    @Test func failedRegistrationsDoNotCount() throws {
        let harness = try AccountsHarness()
        _ = try harness.register("taken", from: "203.0.113.103")
        for _ in 0..<25 {
            let response = try harness.send(
                .post, "/users", json: ["username": "taken", "password": "correct horse battery"], from: "203.0.113.104")
            #expect(response.status == 409)
        }
        _ = try harness.register("free", from: "203.0.113.104")
    }

    @Test func theLimitCanBeLifted() throws {
        var limits = AccountLimits()
        limits.registrationsPerHour = 0
        let harness = try AccountsHarness(limits: limits)
        for number in 0..<25 { _ = try harness.register("user\(number)", from: "203.0.113.105") }
    }
}
