import Images
import TestSupport

/// One application per test process that never listens: the API tests reach its routes
/// through `InMemoryHTTPClient`, each test on connections of its own.
enum PipelineApplication {
    /// Every suite of this target registers its users in this one application, from one
    /// client address: together they create more than the 20 accounts an hour that one
    /// address may (`--registrations-per-hour`), so that limit alone is lifted here
    /// (`RegistrationLimitTests` tests it).
    static let shared: Result<TestApplication, any Error> = Result {
        let origin = try imageOrigin.get()
        return try TestApplication(listening: false) { configuration in
            configuration.accountLimits.registrationsPerHour = 0
            configuration.imageOrigin = ImageOrigin(origin.url)
        }
    }

    /// The photographs' source of the application: a local origin, for the process's life.
    static let imageOrigin: Result<TestImageOrigin, any Error> = Result { try TestImageOrigin() }

    static func client() throws -> InMemoryHTTPClient {
        try shared.get().inMemoryClient()
    }

    /// A connection, a new user `<prefix>_<random>` signed up on it, and a walk of theirs.
    static func userWithAWalk(_ prefix: String) throws -> (client: InMemoryHTTPClient, name: String, token: String, walkID: String) {
        let client = try client()
        let name = "\(prefix)_\(UInt32.random(in: 0...UInt32.max))"
        let token = try client.registerUser(named: name)
        let walk = try client.requestJSON("POST", "/walks", token: token).object()
        guard let walkID = walk["walkID"] as? String else {
            throw RawHTTPClient.ClientError.malformedResponse("POST /walks: \(walk)")
        }
        return (client, name, token, walkID)
    }
}
