import Basics

extension ResponseEncoder {
    /// Which of the request's fields that shape the response are present, found in one
    /// pass over the request's header section.
    struct RequestFields {
        var hasAcceptEncoding = false
        var hasIfNoneMatch = false
        var hasOrigin = false
        var hasAuthorization = false
        var hasRange = false

        init(_ headers: HTTPHeaders) {
            for (name, _) in headers {
                if name.caseInsensitiveEquals("Accept-Encoding") {
                    hasAcceptEncoding = true
                } else if name.caseInsensitiveEquals("If-None-Match") {
                    hasIfNoneMatch = true
                } else if name.caseInsensitiveEquals("Origin") {
                    hasOrigin = true
                } else if name.caseInsensitiveEquals("Authorization") {
                    hasAuthorization = true
                } else if name.caseInsensitiveEquals("Range") {
                    hasRange = true
                }
            }
        }
    }
}
