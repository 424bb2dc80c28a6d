import Dispatch
import Foundation
import Testing
import TestSupport

/// `GET /sync` over a real socket: bad input, tokens bound to their user, and the
/// long poll woken by another device's write.
@Suite struct SyncRoutesTests {
    static let badRequests: [(query: String, parameter: String)] = [
        ("since=not-a-token", "since"),
        ("since=", "since"),
        ("since=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "since"),
        ("limit=0", "limit"),
        ("limit=1001", "limit"),
        ("limit=ten", "limit"),
        ("limit=", "limit"),
        ("wait=31", "wait"),
        ("wait=-1", "wait"),
        ("wait=1.5", "wait"),
    ]

    @Test func badInputIsA400NamingTheParameter() throws {
        let app = try TestApplication()
        let user = try SignedInClient(port: app.port, username: "Badinput")
        for (query, parameter) in Self.badRequests {
            let response = try user.send("GET", "/sync?\(query)")
            #expect(response.status == 400, "\(query)")
            #expect(response.header("Cache-Control") == "no-store", "\(query)")
            #expect(response.bodyText.contains(parameter), "\(query): \(response.bodyText)")
        }
        #expect(try user.send("GET", "/sync", authorized: false).status == 401)
    }

    @Test func aTokenWorksOnlyForTheUserItWasIssuedTo() throws {
        let app = try TestApplication()
        let alice = try SignedInClient(port: app.port, username: "Alice")
        let bob = try SignedInClient(port: app.port, username: "Bob")
        let next = try #require(try alice.object("GET", "/sync")["next"] as? String)
        #expect(try alice.send("GET", "/sync?since=\(next)").status == 200)
        let refused = try bob.send("GET", "/sync?since=\(next)")
        #expect(refused.status == 400)
        #expect(refused.bodyText.contains("since"))
        // One character changed: not ours.
        let altered = String(next.dropLast()) + (next.last == "A" ? "B" : "A")
        #expect(try alice.send("GET", "/sync?since=\(altered)").status == 400)
    }

    @Test func aHeldRequestIsWokenByTheOtherDevicesWrite() throws {
        let app = try TestApplication()
        let phone = try SignedInClient(port: app.port, username: "Waiter")
        let tablet = try SignedInClient(port: app.port, username: "Waiter", logIn: true)
        let photo = try #require(try phone.catalogPhotoIDs(1).first)
        let next = try #require(try phone.object("GET", "/sync")["next"] as? String)

        // Nothing changed: a short wait runs out with no changes and a token.
        let quiet = try phone.object("GET", "/sync?since=\(next)&wait=1")
        #expect((quiet["changes"] as? [Any])?.isEmpty == true)
        #expect(quiet["next"] is String)

        // Held for up to 30 s (the client waits 20): the tablet's save wakes it.
        let waiting = try HeldWaitTests.hold(app, token: phone.token, since: next)
        try HeldWaitTests.waitForHeld(app, count: 1)
        #expect(try tablet.send("PUT", "/favorites/\(photo)").status == 201)
        let woken = try waiting.readResponse()
        #expect(woken.status == 200)
        let changes = try #require(try woken.object()["changes"] as? [[String: Any]])
        #expect(changes.contains { $0["type"] as? String == "favorite" && $0["photoID"] as? String == photo })
        #expect(changes.contains { $0["type"] as? String == "profile" }, "favoriteCount changed")
    }
}
