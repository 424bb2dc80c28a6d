import Foundation
import PastNYCClient
import Testing

extension EndToEndTests {
    /// Registration, login, the signed-in user, profile, password, logout and deletion.
    @Suite struct Accounts {
        @Test func registerAndLogin() async throws {
            let user = try await TestUser.register("riis")
            let client = try makeClient()

            let taken = try await client.register(body: .json(.init(username: user.username.uppercased(), password: user.password)))
            #expect(try taken.conflict.body.applicationProblemJson.status == 409)
            let invalid = try await client.register(body: .json(.init(username: "x", password: user.password)))
            #expect(try invalid.badRequest.body.applicationProblemJson.detail.contains("username"))

            let auth = try await client.login(body: .json(.init(username: user.username.uppercased(), password: user.password))).ok.body.json
            #expect(auth.user.username == user.username)
            #expect(auth.token != user.token)
        }

        /// Five wrong passwords for one name from one address, then 429 with `Retry-After`.
        @Test func loginThrottle() async throws {
            let user = try await TestUser.register("throttled")
            let client = try makeClient()
            let wrong = Operations.Login.Input.Body.json(.init(username: user.username, password: "not the password at all"))
            for _ in 0..<5 {
                _ = try await client.login(body: wrong).unauthorized
            }
            let throttled = try await client.login(body: wrong).tooManyRequests
            #expect(throttled.headers.retryAfter > 0)
            #expect(try throttled.body.applicationProblemJson.status == 429)
        }

        @Test func meAndProfile() async throws {
            let user = try await TestUser.register("profile")
            let me = try await user.client.getMe().ok.body.json
            #expect(me.username == user.username && me.favoriteCount == 0)
            #expect(me.displayName == nil && me.home == nil)

            let patch = Components.Schemas.ProfilePatch(
                displayName: "  Jacob Riis ", home: .init(latitude: unionSquare.latitude, longitude: unionSquare.longitude)
            )
            let patched = try await user.client.updateProfile(body: .applicationMergePatchJson(patch)).ok.body.json
            #expect(patched.displayName == "Jacob Riis")
            #expect(patched.home?.latitude == unionSquare.latitude)
            #expect(try await user.client.getMe().ok.body.json == patched)

            let blank = try await user.client.updateProfile(body: .json(.init(displayName: "   ")))
            #expect(try blank.badRequest.body.applicationProblemJson.detail.contains("displayName"))
        }

        @Test func changePassword() async throws {
            let user = try await TestUser.register("password")
            let newPassword = "a brand new password"
            let wrong = try await user.client.changePassword(body: .json(.init(currentPassword: "not it at all", newPassword: newPassword)))
            #expect(try wrong.forbidden.body.applicationProblemJson.status == 403)
            let short = try await user.client.changePassword(body: .json(.init(currentPassword: user.password, newPassword: "short")))
            #expect(try short.badRequest.body.applicationProblemJson.detail.contains("newPassword"))
            _ = try await user.client.changePassword(body: .json(.init(currentPassword: user.password, newPassword: newPassword))).noContent
            _ = try await makeClient().login(body: .json(.init(username: user.username, password: newPassword))).ok
        }

        @Test func logoutRevokesTheToken() async throws {
            let user = try await TestUser.register("logout")
            _ = try await user.client.logout().noContent
            _ = try await user.client.getMe().unauthorized
            _ = try await user.client.logout().unauthorized
        }

        @Test func deleteAccount() async throws {
            let user = try await TestUser.register("leaving")
            let wrong = try await user.client.deleteMe(body: .json(.init(password: "not the password at all")))
            #expect(try wrong.forbidden.body.applicationProblemJson.status == 403)
            _ = try await user.client.deleteMe(body: .json(.init(password: user.password))).noContent
            _ = try await user.client.getMe().unauthorized
            _ = try await makeClient().login(body: .json(.init(username: user.username, password: user.password))).unauthorized
        }

        /// Every operation that needs a token answers 401, with the bearer challenge,
        /// to a request without one and to one with a token the server never issued.
        @Test(arguments: [nil, "not-a-token"])
        func everyProtectedOperationWantsAToken(token: String?) async throws {
            let client = try makeClient(token: token)
            let photo = Operations.SaveFavorite.Input.Path(photoID: "705740f-a")
            let walk = "oJELDuty_Y9JhHLeZzKAsg"
            let challenges: [String] = [
                try await client.getMe().unauthorized.headers.wwwAuthenticate,
                try await client.updateProfile(body: .json(.init(displayName: "x"))).unauthorized.headers.wwwAuthenticate,
                try await client.deleteMe(body: .json(.init(password: "whatever it is"))).unauthorized.headers.wwwAuthenticate,
                try await client.logout().unauthorized.headers.wwwAuthenticate,
                try await client.changePassword(body: .json(.init(currentPassword: "a", newPassword: "b long enough")))
                    .unauthorized.headers.wwwAuthenticate,
                try await client.eraseMyData().unauthorized.headers.wwwAuthenticate,
                try await client.listFavorites().unauthorized.headers.wwwAuthenticate,
                try await client.listFavorites(query: .init(ids: [photo.photoID])).unauthorized.headers.wwwAuthenticate,
                try await client.getFavorite(path: .init(photoID: photo.photoID)).unauthorized.headers.wwwAuthenticate,
                try await client.saveFavorite(path: photo).unauthorized.headers.wwwAuthenticate,
                try await client.removeFavorite(path: .init(photoID: photo.photoID)).unauthorized.headers.wwwAuthenticate,
                try await client.getFavoritesTour(query: .init(lat: unionSquare.latitude, lon: unionSquare.longitude))
                    .unauthorized.headers.wwwAuthenticate,
                try await client.listRecents().unauthorized.headers.wwwAuthenticate,
                try await client.clearRecents().unauthorized.headers.wwwAuthenticate,
                try await client.recordView(path: .init(photoID: photo.photoID)).unauthorized.headers.wwwAuthenticate,
                try await client.listWalks().unauthorized.headers.wwwAuthenticate,
                try await client.startWalk().unauthorized.headers.wwwAuthenticate,
                try await client.getWalk(path: .init(walkID: walk)).unauthorized.headers.wwwAuthenticate,
                try await client.deleteWalk(path: .init(walkID: walk)).unauthorized.headers.wwwAuthenticate,
                try await client.addWalkPoint(path: .init(walkID: walk), body: .json(.init(latitude: 40.7, longitude: -74)))
                    .unauthorized.headers.wwwAuthenticate,
                try await client.removeWalkPhoto(path: .init(walkID: walk, photoID: photo.photoID)).unauthorized.headers.wwwAuthenticate,
            ]
            #expect(challenges.allSatisfy { $0.hasPrefix(#"Bearer realm="past-nyc""#) })
            #expect(challenges.allSatisfy { $0.contains("invalid_token") == (token != nil) })
        }
    }
}
