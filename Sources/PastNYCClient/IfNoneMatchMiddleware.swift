import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sends the `If-None-Match` header as the caller gave it, so that an unchanged
/// resource answers `304 Not Modified`; and `Range` and `If-Range` likewise, so that a
/// download resumes (`bytes=100-` would leave as `bytes%3D100-`, no range at all).
///
/// The runtime writes every header parameter percent-encoded, as it would a URI
/// component: the ETag `"3f2a"` leaves as `%223f2a%22`, which is no entity tag
/// (RFC 9110 §8.8.3), so the server never finds a match and always answers 200.
/// This middleware undoes that encoding; it is lossless, because the runtime encodes
/// every `%` it was given as `%25`.
public struct IfNoneMatchMiddleware: ClientMiddleware {
    public init() {}

    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        for name in [HTTPField.Name.ifNoneMatch, .ifRange, .range] {
            if let encoded = request.headerFields[name], let decoded = encoded.removingPercentEncoding {
                request.headerFields[name] = decoded
            }
        }
        return try await next(request, body, baseURL)
    }
}
