import HTTPServer

extension CachePolicy {
    /// The public catalog and exploring answers, and this document: the same for everyone,
    /// changed only when a new catalog is imported (a release). Five minutes bounds how
    /// long a cache serves an answer of the old catalog after such a release without
    /// asking; the strong ETags make asking again a cheap `304`.
    static let catalog = CachePolicy.shared(maxAge: 300)
}
