import TestSupport

/// One application per test process that never listens: the API tests reach its routes
/// through `InMemoryHTTPClient`, each test on connections of its own.
enum PipelineApplication {
    static let shared: Result<TestApplication, any Error> = Result { try TestApplication(listening: false) }

    static func client() throws -> InMemoryHTTPClient {
        try shared.get().inMemoryClient()
    }
}
