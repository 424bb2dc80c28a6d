import Foundation
import Testing
import TestSupport

/// `PATCH /users/me` over a real socket: a JSON merge patch (RFC 7396) of
/// `displayName` and `home`, seen in every User the server returns.
@Suite struct ProfileTests {
    @Test func aMergePatchSetsClearsAndKeepsFields() throws {
        let app = try TestApplication()
        let user = try SignedInClient(port: app.port, username: "Berenice")
        let fresh = try user.object("GET", "/users/me")
        #expect(fresh["displayName"] is NSNull)
        #expect(fresh["home"] is NSNull)

        let named = try user.send(
            "PATCH", "/users/me", body: #"{"displayName":"  Berenice Abbott\u00a0"}"#,
            contentType: "application/merge-patch+json")
        #expect(named.status == 200)
        #expect(named.header("Content-Type") == "application/json; charset=utf-8")
        let afterName = try named.object()
        #expect(afterName["displayName"] as? String == "Berenice Abbott", "stored trimmed")
        #expect(afterName["home"] is NSNull)
        #expect(afterName["username"] as? String == "Berenice")
        #expect(afterName["favoriteCount"] as? Int == 0)

        let placed = try user.send(
            "PATCH", "/users/me", body: #"{"home":{"latitude":40.7359,"longitude":-73.9911}}"#,
            contentType: "Application/JSON; charset=utf-8")
        #expect(placed.status == 200)
        let afterHome = try placed.object()
        #expect(afterHome["displayName"] as? String == "Berenice Abbott", "a missing field stays")
        #expect(home(afterHome) == [40.7359, -73.9911])

        // Every User the server returns carries the profile.
        #expect(home(try user.object("GET", "/users/me")) == [40.7359, -73.9911])
        let login = try user.object(
            "POST", "/users/login", body: #"{"username":"berenice","password":"\#(SignedInClient.password)"}"#)
        let loggedIn = try #require(login["user"] as? [String: Any])
        #expect(loggedIn["displayName"] as? String == "Berenice Abbott")
        #expect(home(loggedIn) == [40.7359, -73.9911])

        let unchanged = try user.object("PATCH", "/users/me", body: "{}")
        #expect(unchanged["displayName"] as? String == "Berenice Abbott")
        #expect(home(unchanged) == [40.7359, -73.9911])

        let cleared = try user.object("PATCH", "/users/me", body: #"{"displayName":null}"#)
        #expect(cleared["displayName"] is NSNull, "null clears")
        #expect(home(cleared) == [40.7359, -73.9911])
        let bothCleared = try user.object("PATCH", "/users/me", body: #"{"home":null,"displayName":"Abbott"}"#)
        #expect(bothCleared["home"] is NSNull)
        #expect(bothCleared["displayName"] as? String == "Abbott")

        // Bounds: 64 characters (grapheme clusters) once trimmed; the extreme coordinates.
        let longest = String(repeating: "é", count: 32) + String(repeating: "👍🏽", count: 32)
        let atBounds = try user.object(
            "PATCH", "/users/me",
            body: #"{"displayName":" \#(longest) ","home":{"longitude":-180,"latitude":90}}"#)
        #expect(atBounds["displayName"] as? String == longest)
        #expect(home(atBounds) == [90, -180])
    }

    /// Bad patches: (content type, body, status, a name the problem must mention).
    static let refused: [(contentType: String?, body: String, status: Int, name: String)] = [
        ("application/merge-patch+json", #"{"displayName":"\#(String(repeating: "x", count: 65))"}"#, 400, "displayName"),
        ("application/merge-patch+json", #"{"displayName":"   "}"#, 400, "displayName"),
        ("application/merge-patch+json", #"{"displayName":""}"#, 400, "displayName"),
        ("application/merge-patch+json", #"{"displayName":"\u2003\t"}"#, 400, "displayName"),
        ("application/merge-patch+json", #"{"displayName":"Ada\u0007"}"#, 400, "displayName"),
        ("application/merge-patch+json", #"{"displayName":"Ada\nLovelace"}"#, 400, "displayName"),
        ("application/merge-patch+json", #"{"displayName":"Ada\u0000"}"#, 400, "displayName"),
        ("application/merge-patch+json", #"{"displayName":"Ada\u007f"}"#, 400, "displayName"),
        ("application/merge-patch+json", #"{"displayName":"Ada\u0085"}"#, 400, "displayName"),
        ("application/merge-patch+json", #"{"displayName":42}"#, 400, "displayName"),
        ("application/merge-patch+json", #"{"displayName":true}"#, 400, "displayName"),
        ("application/merge-patch+json", #"{"displayName":["Ada"]}"#, 400, "displayName"),
        ("application/json", #"{"home":{"latitude":40.7}}"#, 400, "longitude"),
        ("application/json", #"{"home":{"longitude":-73.9}}"#, 400, "latitude"),
        ("application/json", #"{"home":{}}"#, 400, "latitude"),
        ("application/json", #"{"home":{"latitude":40.7,"longitude":-73.9,"altitude":10}}"#, 400, "altitude"),
        ("application/json", #"{"home":{"latitude":90.0001,"longitude":0}}"#, 400, "latitude"),
        ("application/json", #"{"home":{"latitude":-91,"longitude":0}}"#, 400, "latitude"),
        ("application/json", #"{"home":{"latitude":0,"longitude":180.5}}"#, 400, "longitude"),
        ("application/json", #"{"home":{"latitude":0,"longitude":-181}}"#, 400, "longitude"),
        ("application/json", #"{"home":{"latitude":1e999,"longitude":0}}"#, 400, "latitude"),
        ("application/json", #"{"home":{"latitude":"40.7","longitude":0}}"#, 400, "latitude"),
        ("application/json", #"{"home":{"latitude":true,"longitude":0}}"#, 400, "latitude"),
        ("application/json", #"{"home":{"latitude":0,"longitude":null}}"#, 400, "longitude"),
        ("application/json", #"{"home":[40.7,-73.9]}"#, 400, "home"),
        ("application/json", #"{"home":"40.7,-73.9"}"#, 400, "home"),
        ("application/json", #"{"home":5}"#, 400, "home"),
        ("application/json", #"{"displayName":"Ada","email":"ada@example.org"}"#, 400, "email"),
        ("application/json", #"{"username":"someone_else"}"#, 400, "username"),
        ("application/json", #"{"displayName":"Ada","home":{"latitude":100,"longitude":0}}"#, 400, "latitude"),
        ("application/json", #"{"home":{"latitude":1,"longitude":2},"displayName":"\u0001"}"#, 400, "displayName"),
        ("application/json", #"["displayName","Ada"]"#, 400, "object"),
        ("application/json", #""Ada""#, 400, "object"),
        ("application/json", "null", 400, "object"),
        ("application/json", #"{"displayName":"Ada""#, 400, "JSON"),
        ("text/plain", #"{"displayName":"Ada"}"#, 415, "application/merge-patch+json"),
        ("application/json-patch+json", #"[{"op":"add","path":"/displayName","value":"Ada"}]"#, 415, "application/json"),
        ("application/x-www-form-urlencoded", "displayName=Ada", 415, "application/json"),
        (nil, #"{"displayName":"Ada"}"#, 415, "application/merge-patch+json"),
    ]

    @Test func badPatchesAreRefusedNamingTheFaultAndWriteNothing() throws {
        let app = try TestApplication()
        let user = try SignedInClient(port: app.port, username: "Weegee")
        let before = try user.object(
            "PATCH", "/users/me", body: #"{"displayName":"Arthur Fellig","home":{"latitude":40.71,"longitude":-74}}"#)

        for (contentType, body, status, name) in Self.refused {
            let response = try user.send("PATCH", "/users/me", body: body, contentType: contentType)
            #expect(response.status == status, "\(body): \(response.bodyText)")
            #expect(response.header("Content-Type") == "application/problem+json", "\(body)")
            let problem = try response.object()
            let text = "\(problem["title"] ?? "") \(problem["detail"] ?? "")"
            #expect(mentions(text, name), "\(body): \(text) does not name \(name)")
            let after = try user.object("GET", "/users/me")
            #expect(after["displayName"] as? String == before["displayName"] as? String, "half-written by \(body)")
            #expect(home(after) == home(before), "half-written by \(body)")
        }
    }

    @Test func authenticationComesBeforeTheBody() throws {
        let app = try TestApplication()
        let user = try SignedInClient(port: app.port, username: "Lewis_Hine")
        for (contentType, body) in [("text/plain", "oops"), ("application/json", "{oops"), ("application/json", #"{"displayName":"Hine"}"#)] {
            let anonymous = try user.send("PATCH", "/users/me", body: body, contentType: contentType, authorized: false)
            #expect(anonymous.status == 401)
            #expect(anonymous.header("WWW-Authenticate") == #"Bearer realm="past-nyc""#)
            let forged = try user.send(
                "PATCH", "/users/me", body: body, contentType: contentType,
                authorization: "Bearer " + String(repeating: "A", count: 43))
            #expect(forged.status == 401)
            #expect(forged.header("WWW-Authenticate")?.contains(#"error="invalid_token""#) == true)
        }
        #expect(try user.object("GET", "/users/me")["displayName"] is NSNull)
    }

    /// `[latitude, longitude]` of a User's `home`, empty when it is null.
    private func home(_ user: [String: Any]) -> [Double] {
        guard let home = user["home"] as? [String: Any] else { return [] }
        #expect(home.count == 2, "home has exactly latitude and longitude")
        return [home["latitude"], home["longitude"]].compactMap { $0 as? Double }
    }

    /// Whether `name` appears in `text` as a word (not inside a longer name).
    private func mentions(_ text: String, _ name: String) -> Bool {
        let pattern = "(^|[^A-Za-z0-9_])" + NSRegularExpression.escapedPattern(for: name) + "([^A-Za-z0-9_]|$)"
        return text.range(of: pattern, options: .regularExpression) != nil
    }
}
