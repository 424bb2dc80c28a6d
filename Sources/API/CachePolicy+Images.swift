import HTTPServer

extension CachePolicy {
    /// A photograph: the same bytes for a day at least, and a strong tag that changes
    /// only when an accepted rotation turns it (RFC 9111 §5.2.2.1).
    static let images = CachePolicy.shared(maxAge: 86400)
}
