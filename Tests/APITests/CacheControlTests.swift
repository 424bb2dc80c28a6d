import Foundation
import HTTPServer
import Testing
import TestSupport
import WebAssets

/// The `Cache-Control` rule for every route of the application, walked from its route
/// table: a route added without a case here fails the first test, so no endpoint can
/// forget what it tells caches.
@Suite struct CacheControlTests {
    /// A request that the route answers with a 2xx for a signed-in caller (with a
    /// `{token}` and `{walkID}` to fill in), by "METHOD pattern".
    static let examples: [String: (target: String, body: String?)] = [
        "GET /healthz": ("/healthz", nil),
        "GET /openapi.yaml": ("/openapi.yaml", nil),
        "GET /nearby": ("/nearby?lat=40.7306&lon=-73.9866", nil),
        "GET /region": ("/region?south=40.70&west=-74.02&north=40.75&east=-73.97", nil),
        "GET /photos/{photoID}": ("/photos/705740f-a", nil),
        "GET /photos/{photoID}/image": ("/photos/705740f-a/image", nil),
        // Its one photo is kept by the image route's example, which the route table lists first.
        "GET /images/pack": ("/images/pack?ids=705740f-a&size=600", nil),
        "GET /photos/popular": ("/photos/popular", nil),
        "GET /locations/{locationID}": ("/locations/40.729510,-73.953958", nil),
        "GET /boroughs": ("/boroughs", nil),
        "GET /catalog/snapshot": ("/catalog/snapshot", nil),
        "GET /catalog/changes": ("/catalog/changes", nil),
        "GET /topics": ("/topics", nil),
        "GET /search": ("/search?q=broadway", nil),
        "GET /clusters": ("/clusters?south=40.70&west=-74.02&north=40.75&east=-73.97&zoom=12", nil),
        "GET /tours": ("/tours?lat=40.7306&lon=-73.9866", nil),
        "GET /tours/favorites": ("/tours/favorites?lat=40.7306&lon=-73.9866", nil),
        "POST /users": ("/users", #"{"username":"{name}","password":"correct horse battery staple"}"#),
        "POST /users/login": ("/users/login", #"{"username":"{name}","password":"correct horse battery staple"}"#),
        "GET /users/me": ("/users/me", nil),
        "PATCH /users/me": ("/users/me", #"{"displayName":"Jacob"}"#),
        "PUT /users/me/password": ("/users/me/password", #"{"currentPassword":"x","newPassword":"y"}"#),
        "DELETE /users/me": ("/users/me", #"{"password":"wrong"}"#),
        "DELETE /users/me/data": ("/users/me/data", nil),
        "POST /users/logout": ("/users/logout", nil),
        "GET /favorites": ("/favorites", nil),
        "GET /favorites/{photoID}": ("/favorites/705740f-a", nil),
        "PUT /favorites/{photoID}": ("/favorites/705740f-a", nil),
        "DELETE /favorites/{photoID}": ("/favorites/705740f-a", nil),
        "GET /recents": ("/recents", nil),
        "PUT /recents/{photoID}": ("/recents/705740f-a", nil),
        "DELETE /recents": ("/recents", nil),
        "POST /walks": ("/walks", nil),
        "GET /walks": ("/walks", nil),
        "GET /walks/{walkID}": ("/walks/{walkID}", nil),
        "DELETE /walks/{walkID}": ("/walks/{walkID}", nil),
        "GET /walks/{walkID}/route": ("/walks/{walkID}/route", nil),
        "POST /walks/{walkID}/points": ("/walks/{walkID}/points", #"{"latitude":40.7306,"longitude":-73.9866}"#),
        "POST /walks/{walkID}/points/batch": (
            "/walks/{walkID}/points/batch",
            #"{"points":[{"latitude":40.7306,"longitude":-73.9866,"recordedAt":"2026-11-22T09:41:07.250-05:00"}]}"#
        ),
        "DELETE /walks/{walkID}/photos/{photoID}": ("/walks/{walkID}/photos/705740f-a", nil),
        "GET /sync": ("/sync?limit=2", nil),
        "POST /photos/{photoID}/feedback": ("/photos/705740f-a/feedback", #"{"kind":"date","year":1931}"#),
        "GET /feedback/mine": ("/feedback/mine", nil),
        // Another user's, or none: a 404 with a token, a 401 without; never stored either way.
        "GET /feedback/{feedbackID}": ("/feedback/1", nil),
        // A moderator's: a 403 to the test's user, never stored either.
        "GET /feedback": ("/feedback", nil),
        "POST /feedback/{feedbackID}/decision": ("/feedback/1/decision", #"{"accept":false}"#),
        // The two files the application makes at start beside the web folder's.
        "GET /data/boroughs.geojson": ("/data/boroughs.geojson", nil),
        "GET /app/settings.json": ("/app/settings.json", nil),
    ]

    /// The web folder's files (the map at `/`, the API reference at `/docs`, their scripts,
    /// styles and vendored libraries): each is its own route, answering at its path.
    static func webExamples() throws -> [String: (target: String, body: String?)] {
        let assets = try WebAssets(folder: PackageRoot.path + "/Web").assets
        return Dictionary(uniqueKeysWithValues: assets.map { ("GET \($0.path)", (target: $0.path, body: nil)) })
    }

    /// Every route's example: the API's and the web folder's.
    static func allExamples() throws -> [String: (target: String, body: String?)] {
        try examples.merging(webExamples()) { api, _ in api }
    }

    /// Routes whose answers hold no one's data and change from moment to moment: no rule.
    static let unspecified: Set<String> = ["GET /healthz", "GET /photos/popular"]
    /// Public routes whose answers may change at any moment and are confirmed by their
    /// ETag: every answer says `no-cache` (the contract's exception to `max-age`).
    static let revalidated: Set<String> = ["GET /catalog/changes"]
    /// Public routes that hold no token: their GET answers may be kept by any cache. The
    /// web pages and their files too: they change only with a release.
    static func shared() throws -> Set<String> {
        try Set([
            "GET /openapi.yaml", "GET /nearby", "GET /region", "GET /photos/{photoID}", "GET /locations/{locationID}",
            "GET /boroughs", "GET /topics", "GET /search", "GET /clusters", "GET /tours", "GET /data/boroughs.geojson",
            "GET /app/settings.json", "GET /catalog/snapshot", "GET /photos/{photoID}/image", "GET /images/pack",
        ]).union(webExamples().keys)
    }

    /// A photograph: the same bytes for a day at least.
    static let image = "GET /photos/{photoID}/image"

    /// A vendored library's file, in a folder named with its version (`/vendor/leaflet-1.9.4/…`):
    /// its bytes never change under its path, and its answer says so itself.
    static func isVersioned(_ target: String) -> Bool {
        target.hasPrefix("/vendor/") && target.split(separator: "/").count >= 3
    }

    static func key(_ entry: Router.Entry) -> String { "\(entry.method.rawValue) \(entry.pattern)" }

    @Test func everyRouteHasAnExampleAndItsDeclaredPolicyIsTheContracts() throws {
        let routes = try PipelineApplication.shared.get().application.router.entries
        let examples = try Self.allExamples()
        let shared = try Self.shared()
        #expect(Set(routes.map(Self.key)) == Set(examples.keys), "a route without an example here, or an example of no route")
        #expect(examples.keys.contains("GET /") && examples.keys.contains("GET /docs"), "the map and the API reference")
        for entry in routes {
            let key = Self.key(entry)
            if shared.contains(key) {
                #expect(entry.caching == .shared(maxAge: key == Self.image ? 86400 : 300), "\(key)")
            } else if Self.unspecified.contains(key) {
                #expect(entry.caching == .unspecified, "\(key)")
            } else if Self.revalidated.contains(key) {
                #expect(entry.caching == .revalidate, "\(key)")
            } else {
                #expect(entry.caching == .noStore, "\(key): holds a token or a user's data")
            }
        }
    }

    /// The whole rule, for every route, as a client sees it on the wire.
    @Test func everyRouteAnswersWithTheRule() throws {
        let (client, name, token, walkID) = try PipelineApplication.userWithAWalk("cache")
        let examples = try Self.allExamples()
        let shared = try Self.shared()
        // Logging out ends the token: last.
        let entries = try PipelineApplication.shared.get().application.router.entries
        let routes = entries.filter { Self.key($0) != "POST /users/logout" } + entries.filter { Self.key($0) == "POST /users/logout" }
        for entry in routes {
            let key = Self.key(entry)
            let example = try #require(examples[key], "\(key)")
            let target = example.target.replacingOccurrences(of: "{walkID}", with: walkID)
            let body = example.body?.replacingOccurrences(of: "{name}", with: "\(name)_2")
            let method = entry.method.rawValue

            // Without a token.
            let anonymous = try client.requestJSON(method, target, json: key == "POST /users/login" ? body?.replacingOccurrences(of: "_2", with: "") : body)
            let anonymousControl = anonymous.header("Cache-Control")
            if shared.contains(key) {
                #expect(anonymous.status == 200, "\(key): \(anonymous.bodyText.prefix(200))")
                let age = Self.maxAge(anonymousControl)
                #expect(age != nil && age! >= 60, "\(key): \(anonymousControl ?? "none")")
                for forbidden in ["no-store", "no-cache", "private"] {
                    #expect(anonymousControl?.contains(forbidden) != true, "\(key)")
                }
                #expect(
                    anonymous.headerValues("Cache-Control")
                        == [
                            Self.isVersioned(target)
                                ? WebAsset.immutableCacheControl : key == Self.image ? "public, max-age=86400" : "public, max-age=300"
                        ],
                    "\(key)")
                let etag = try #require(anonymous.header("ETag"), "\(key)")
                let revalidated = try client.request(method, target, headers: [("If-None-Match", etag)])
                #expect(revalidated.status == 304 && revalidated.header("Cache-Control") == anonymousControl, "\(key)")
                let head = try client.request("HEAD", target)
                #expect(head.status == 200 && head.header("Cache-Control") == anonymousControl, "\(key)")
                let bad = try client.request(method, target + (target.contains("?") ? "&" : "?") + "limit=0")
                if bad.status == 400 { #expect(bad.header("Cache-Control") == nil, "\(key): an error is not for caches") }
            } else if Self.unspecified.contains(key) {
                #expect(anonymousControl == nil, "\(key)")
            } else if Self.revalidated.contains(key) {
                #expect(anonymous.status == 200 && anonymousControl == "no-cache", "\(key)")
                let etag = try #require(anonymous.header("ETag"), "\(key)")
                let revalidated = try client.request(method, target, headers: [("If-None-Match", etag)])
                #expect(revalidated.status == 304 && revalidated.header("Cache-Control") == "no-cache", "\(key)")
                let bad = try client.request(method, target + "?since=nonsense")
                #expect(bad.status == 400 && bad.header("Cache-Control") == "no-cache", "\(key): every answer")
            } else {
                #expect(anonymousControl == "no-store", "\(key): \(anonymous.status) \(anonymousControl ?? "none")")
                if !key.hasPrefix("POST /users") {
                    #expect(anonymous.status == 401, "\(key): protected")
                }
            }

            // With a token: whatever the route and the status, never stored.
            let signedIn = try client.requestJSON(method, target, json: body, token: token)
            #expect(signedIn.header("Cache-Control") == "no-store", "\(key) with a token: \(signedIn.status)")
        }
    }

    @Test func anyAnswerToATokenIsNotStoredButPreflightsAreExempt() throws {
        let client = try PipelineApplication.client()
        let bearer = [("Authorization", "Bearer whatever")]
        #expect(try client.request("GET", "/no-such-path", headers: bearer).header("Cache-Control") == "no-store")
        #expect(try client.request("GET", "/no-such-path").header("Cache-Control") == nil)
        #expect(try client.request("DELETE", "/nearby", headers: bearer).header("Cache-Control") == "no-store")
        #expect(try client.request("DELETE", "/nearby").header("Cache-Control") == nil)
        #expect(try client.request("POST", "/favorites").header("Cache-Control") == "no-store", "405 of a protected path")
        #expect(try client.request("OPTIONS", "/favorites").header("Cache-Control") == "no-store")
        let preflight = try client.request(
            "OPTIONS", "/favorites",
            headers: [("Origin", "https://example.com"), ("Access-Control-Request-Method", "GET")])
        #expect(preflight.status == 204 && preflight.header("Cache-Control") == nil)
    }

    /// The `max-age` of a `public` Cache-Control value.
    static func maxAge(_ value: String?) -> Int? {
        guard let value else { return nil }
        let directives = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard directives.contains("public") else { return nil }
        return directives.first { $0.hasPrefix("max-age=") }.flatMap { Int($0.dropFirst("max-age=".count)) }
    }
}
