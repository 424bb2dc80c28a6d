import Foundation
import HTTPServer

/// The OpenAPI description of this API, read once at start and served as is.
struct OpenAPIDocument: Sendable {
    let bytes: [UInt8]
    let etag: String

    init(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ApplicationError.missingFile(path: path, purpose: "the OpenAPI document served at /openapi.yaml")
        }
        bytes = Array(data)
        etag = HTTPResponse.strongETag(for: bytes)
    }
}
