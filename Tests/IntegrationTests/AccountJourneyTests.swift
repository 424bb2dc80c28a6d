import Foundation
import Testing
import TestSupport

/// A user's whole life over one real keep-alive connection: register, use the token,
/// save favorites, change the password, log out, delete the account.
@Suite struct AccountJourneyTests {

    @Test func registerSaveFavoritesAndLeave() throws {
        let app = try TestApplication()
        let client = try app.connect()

        let registered = try client.requestJSON(
            "POST", "/users", json: #"{"username":"Stuyvesant","password":"a long walk down the Bowery"}"#)
        #expect(registered.status == 201)
        let token = try #require(try registered.object()["token"] as? String)

        let saved = try client.requestJSON("PUT", "/favorites/729011f-a", token: token)
        #expect(saved.status == 201)
        let savedAgain = try client.requestJSON("PUT", "/favorites/729011f-a", token: token)
        #expect(savedAgain.status == 200)
        #expect(try savedAgain.object()["savedAt"] as? String == saved.object()["savedAt"] as? String)
        #expect(try client.requestJSON("PUT", "/favorites/not-a-photo", token: token).status == 404)

        let me = try client.requestJSON("GET", "/users/me", token: token).object()
        #expect(me["username"] as? String == "Stuyvesant")
        #expect(me["favoriteCount"] as? Int == 1)

        let list = try client.requestJSON("GET", "/favorites", token: token).object()
        let favorites = try #require(list["favorites"] as? [[String: Any]])
        #expect(favorites.map { $0["photoID"] as? String } == ["729011f-a"])
        #expect(favorites.first?["thumbnailURL"] is String)

        // A second login from another "phone", then a password change from the first:
        // the other session's token stops working, the changing one keeps working.
        let otherLogin = try client.requestJSON(
            "POST", "/users/login", json: #"{"username":"stuyvesant","password":"a long walk down the Bowery"}"#)
        #expect(otherLogin.status == 200)
        let otherToken = try #require(try otherLogin.object()["token"] as? String)
        let changed = try client.requestJSON(
            "PUT", "/users/me/password",
            json: #"{"currentPassword":"a long walk down the Bowery","newPassword":"uptown by the elevated train"}"#,
            token: token)
        #expect(changed.status == 204)
        let revoked = try client.requestJSON("GET", "/users/me", token: otherToken)
        #expect(revoked.status == 401)
        #expect(revoked.header("WWW-Authenticate")?.contains(#"error="invalid_token""#) == true)
        #expect(try client.requestJSON("GET", "/users/me", token: token).status == 200)

        #expect(try client.requestJSON("POST", "/users/logout", token: token).status == 204)
        #expect(try client.requestJSON("GET", "/favorites", token: token).status == 401)

        let relogin = try client.requestJSON(
            "POST", "/users/login", json: #"{"username":"STUYVESANT","password":"uptown by the elevated train"}"#)
        let newToken = try #require(try relogin.object()["token"] as? String)
        let deleted = try client.requestJSON(
            "DELETE", "/users/me", json: #"{"password":"uptown by the elevated train"}"#, token: newToken)
        #expect(deleted.status == 204)
        let gone = try client.requestJSON(
            "POST", "/users/login", json: #"{"username":"Stuyvesant","password":"uptown by the elevated train"}"#)
        #expect(gone.status == 401)
    }

    @Test func protectedEndpointsWithoutATokenAsk()  throws {
        let app = try TestApplication()
        let response = try app.connect().requestJSON("GET", "/favorites")
        #expect(response.status == 401)
        #expect(response.header("WWW-Authenticate") == #"Bearer realm="past-nyc""#)
        #expect(response.header("Content-Type") == "application/problem+json")
    }
}
