import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sends the signed-in user's token as `Authorization: Bearer <token>` (RFC 6750 §2.1).
///
/// The token is asked for on every request, so one client serves a whole session:
/// nothing is sent before sign-in, the new token right after `login`, nothing once the
/// app forgets it. Public operations ignore the header, so it goes on every request.
public struct BearerTokenMiddleware: ClientMiddleware {
    private let token: @Sendable () async -> String?

    /// - Parameter token: the current token, or nil when signed out.
    public init(token: @escaping @Sendable () async -> String?) {
        self.token = token
    }

    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if let token = await token() {
            request.headerFields[.authorization] = "Bearer \(token)"
        }
        return try await next(request, body, baseURL)
    }
}
