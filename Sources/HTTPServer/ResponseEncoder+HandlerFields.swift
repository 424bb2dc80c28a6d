import Basics

extension ResponseEncoder {
    /// What the encoder needs to know of a handler's header fields, found in one pass.
    struct HandlerFields {
        /// The first `Content-Type`.
        var contentType: String?
        var hasContentEncoding = false
        var hasCacheControl = false
        /// The first `Vary`.
        var firstVary: String?
        /// The bytes the fields take in a head, each with its `: ` and line break.
        var bytes = 0

        init(_ headers: HTTPHeaders) {
            for (name, value) in headers {
                bytes += name.utf8.count + value.utf8.count + 4
                if name.caseInsensitiveEquals("Content-Type") {
                    if contentType == nil { contentType = value }
                } else if name.caseInsensitiveEquals("Content-Encoding") {
                    hasContentEncoding = true
                } else if name.caseInsensitiveEquals("Vary") {
                    if firstVary == nil { firstVary = value }
                } else if name.caseInsensitiveEquals("Cache-Control") {
                    hasCacheControl = true
                }
            }
        }

        /// JSON, YAML and text bodies not already content-coded may be sent gzipped.
        var isCompressible: Bool {
            guard !hasContentEncoding, let contentType else { return false }
            return HTTPResponse.isCompressible(contentType: contentType)
        }
    }
}
