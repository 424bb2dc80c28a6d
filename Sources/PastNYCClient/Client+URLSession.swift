import Foundation
import OpenAPIRuntime
import OpenAPIURLSession

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Client {
    /// A client of the PAST NYC API at `serverURL` over `session`, sending the signed-in
    /// user's bearer token (``BearerTokenMiddleware``) and `If-None-Match` as given
    /// (``IfNoneMatchMiddleware``), so that an ETag from an earlier answer gets a 304.
    /// Times are read with or without milliseconds and written with them.
    ///
    /// - Parameters:
    ///   - serverURL: the API's base URL, such as `https://pastnyc.example.com`.
    ///   - session: the URLSession to send requests with.
    ///   - token: the current bearer token, or nil when signed out; asked for on every request.
    public init(serverURL: URL, session: URLSession = .shared, token: @escaping @Sendable () async -> String? = { nil }) {
        self.init(
            serverURL: serverURL,
            configuration: Configuration(dateTranscoder: RFC3339DateTranscoder()),
            transport: URLSessionTransport(configuration: .init(session: session)),
            middlewares: [BearerTokenMiddleware(token: token), IfNoneMatchMiddleware()]
        )
    }
}
