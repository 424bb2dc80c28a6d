import Basics

extension ResponseEncoder {
    /// The handler's fields a response head leaves out: those the server always sets
    /// itself, and those the encoder replaces for this response (a replaced field is
    /// written once, after the handler's own).
    struct Omitted {
        var vary = false
        var etag = false
        /// A 304 carries no `Content-Type`.
        var contentType = false
        var contentEncoding = false
        var cacheControl = false
        /// `Access-Control-Allow-Origin` and `Access-Control-Expose-Headers`.
        var cors = false

        func contains(_ name: String) -> Bool {
            // Names of different lengths never match, so most fields cost a length check or two.
            switch name.utf8.count {
            case 4: return name.caseInsensitiveEquals("Date") || (vary && name.caseInsensitiveEquals("Vary"))
                || (etag && name.caseInsensitiveEquals("ETag"))
            case 6: return name.caseInsensitiveEquals("Server")
            case 10: return name.caseInsensitiveEquals("Connection")
            case 12: return name.caseInsensitiveEquals("X-Request-ID") || (contentType && name.caseInsensitiveEquals("Content-Type"))
            case 13: return cacheControl && name.caseInsensitiveEquals("Cache-Control")
            case 14: return name.caseInsensitiveEquals("Content-Length")
            case 16: return contentEncoding && name.caseInsensitiveEquals("Content-Encoding")
            case 17: return name.caseInsensitiveEquals("Transfer-Encoding")
            case 22: return name.caseInsensitiveEquals("X-Content-Type-Options")
            case 27: return cors && name.caseInsensitiveEquals("Access-Control-Allow-Origin")
            case 29: return cors && name.caseInsensitiveEquals("Access-Control-Expose-Headers")
            default: return false
            }
        }
    }
}
