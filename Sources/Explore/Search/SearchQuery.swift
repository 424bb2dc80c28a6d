import Basics
import Catalog

/// One page of a search: the terms, the filters, the order and where the page starts.
public struct SearchQuery: Sendable {
    public var terms: SearchTerms
    public var filter: PhotoFilter
    /// With a point, results come nearest first (ties by `photoID`); without, the most
    /// relevant first (ties by `photoID`).
    public var origin: (latitude: Double, longitude: Double)?
    public var limit: Int
    /// How many results of the whole ordered list come before this page (from the cursor).
    public var offset: Int

    public init(
        terms: SearchTerms, filter: PhotoFilter = PhotoFilter(), origin: (latitude: Double, longitude: Double)? = nil,
        limit: Int = 20, offset: Int = 0
    ) {
        self.terms = terms
        self.filter = filter
        self.origin = origin
        self.limit = limit
        self.offset = offset
    }

    /// A stable 64-bit digest (FNV-1a) of everything that decides the ordered list of
    /// results, but not of `limit` or `offset`: a cursor carries it, so a cursor given
    /// with another query is refused instead of paging through the wrong list. Stable
    /// across restarts, unlike `Hasher`.
    public var listDigest: UInt64 {
        var digest = StableDigest()
        for key in terms.keys { digest.mix(key.utf8) }
        digest.mix(filter.fromYear)
        digest.mix(filter.toYear)
        digest.mix(filter.topic)
        digest.mix((filter.borough?.rawValue ?? "").utf8)
        if let origin {
            digest.mix(origin.latitude.bitPattern)
            digest.mix(origin.longitude.bitPattern)
        }
        return digest.value
    }
}
