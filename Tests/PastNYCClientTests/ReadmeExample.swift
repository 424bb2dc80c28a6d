// The example of docs/CLIENT.md, verbatim between the markers
// (ReadmeExampleTests checks that the README still quotes it).
// BEGIN README EXAMPLE
import Foundation
import PastNYCClient

/// Who is signed in: the client asks it for the token before every request.
actor Session {
    private(set) var token: String?
    func signIn(token: String) { self.token = token }
}

/// Signs up, lists the photos near Union Square, saves the first one as a
/// favorite, then asks for the same list with its ETag: true when that is a 304.
func firstCalls(serverURL: URL, username: String, password: String) async throws -> Bool {
    let session = Session()
    let api = Client(serverURL: serverURL, token: { await session.token })

    // Register (or log in: `api.login`, same body) and keep the token.
    let credentials = Components.Schemas.Credentials(username: username, password: password)
    let auth = try await api.register(body: .json(credentials)).created.body.json
    await session.signIn(token: auth.token)

    // The 5 nearest locations, up to 3 photos each. `.ok` throws on any other answer.
    let query = Operations.GetNearby.Input.Query(lat: 40.7359, lon: -73.9911, limit: 5, photos: 3)
    let nearby = try await api.getNearby(query: query).ok
    guard let photo = try nearby.body.json.locations.first?.value2.photos.first else { return false }

    // Save it (201 the first time, 200 after that); this sends the token.
    _ = try await api.saveFavorite(path: .init(photoID: photo.photoID)).created

    // Nothing changed since, so the same request with the ETag answers 304.
    let again = try await api.getNearby(query: query, headers: .init(ifNoneMatch: nearby.headers.eTag))
    if case .notModified = again { return true }
    return false
}
// END README EXAMPLE
