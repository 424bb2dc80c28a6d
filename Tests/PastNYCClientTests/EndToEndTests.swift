import Foundation
import PastNYCClient
import Testing

/// Every operation of openapi.yaml through the generated client, against the real
/// server (one for the whole suite): each documented status the client can provoke
/// (2xx, 304, 400, 401, 403, 404, 409, 429) decodes into its documented case. The
/// `.ok`, `.badRequest`, … accessors throw on any other case, `.undocumented`
/// included, and the client throws when a body does not decode, so reaching the
/// accessor is the check. What the typed client cannot provoke: 400 where no
/// value it can send is invalid (operations without inputs, `login` and
/// `deleteMe`, whose bodies are any strings, and photo and walk IDs, where an
/// unknown one is 404), 413, 414, 415 and 431 (it never sends such a request),
/// 503 (only while password hashing is saturated or the user data cannot be
/// reached), and a `MissingEntry` or `MissingFavorite` (only once a photo has left
/// the catalog).
@Suite(.runningServer)
struct EndToEndTests {}

/// A point near Union Square, Manhattan, with many photos around it.
let unionSquare = (latitude: 40.7359, longitude: -73.9911)

/// A client of the suite's server that sends `token` when there is one.
func makeClient(token: String? = nil) throws -> Client {
    let url = try #require(RunningServer.url, "no server: run the tests in EndToEndTests")
    return Client(serverURL: url, token: { token })
}

/// A user registered for one test, with a client that sends its token.
struct TestUser {
    let username: String
    let password: String
    let token: String
    let client: Client

    /// Registers a user named `prefix` plus a random suffix, unique in the run.
    static func register(_ prefix: String) async throws -> TestUser {
        let username = "\(prefix)_\(UInt32.random(in: 0...UInt32.max))"
        let password = "walk the old city \(UInt32.random(in: 0...UInt32.max))"
        let auth = try await makeClient()
            .register(body: .json(.init(username: username, password: password)))
            .created.body.json
        #expect(auth.user.username == username)
        return TestUser(username: username, password: password, token: auth.token, client: try makeClient(token: auth.token))
    }
}

/// The photo IDs of the first locations near Union Square.
func photoIDsNearUnionSquare(count: Int) async throws -> [String] {
    let nearby = try await makeClient()
        .getNearby(query: .init(lat: unionSquare.latitude, lon: unionSquare.longitude, limit: 10, photos: 5))
        .ok.body.json
    let ids = nearby.locations.flatMap { $0.value2.photos.map(\.photoID) }
    try #require(ids.count >= count)
    return Array(ids.prefix(count))
}
