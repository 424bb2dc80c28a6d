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
        var digest: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ bytes: some Sequence<UInt8>) {
            for byte in bytes {
                digest ^= UInt64(byte)
                digest &*= 0x0000_0100_0000_01b3
            }
            digest ^= 0xFF
            digest &*= 0x0000_0100_0000_01b3
        }
        func mix(_ value: UInt64) {
            mix((0..<8).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) })
        }
        for key in terms.keys { mix(key.utf8) }
        mix(filter.fromYear.map { UInt64(bitPattern: Int64($0)) } ?? .max)
        mix(filter.toYear.map { UInt64(bitPattern: Int64($0)) } ?? .max)
        mix((filter.borough?.rawValue ?? "").utf8)
        if let origin {
            mix(origin.latitude.bitPattern)
            mix(origin.longitude.bitPattern)
        }
        return digest
    }
}
