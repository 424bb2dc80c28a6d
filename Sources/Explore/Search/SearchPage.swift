/// One page of search results.
public struct SearchPage: Sendable {
    /// How many photos match, over all pages.
    public let total: Int
    /// The page's photos, as indices into `PhotoCatalog.photos`, in result order.
    public let photos: [Int]
    /// Each photo's distance in metres to the query's point, when it had one; else empty.
    public let distances: [Double]
    /// Where the next page starts, nil on the last page.
    public let nextOffset: Int?
}
