import Catalog

/// `GET /search`: photos whose words match every word of a query (openapi.yaml).
///
/// Everything is in memory: the postings of every word (`SearchPostings`, built with
/// the catalog from FTS5's index) give each phrase of a query its photos and its
/// `bm25()` rank in each, as FTS5 would; phrases matching many photos stay ranked in
/// `PhraseCache`. A query's rank is the sum of its phrases' ranks (which is what FTS5's
/// `bm25()` of the whole query gives). Without filters or a point, a page comes from the
/// fronts of the phrases' lists in rank order (`bestCommon`) and the count from their
/// bit sets, so a page of a word in 38,701 photos reads about a page of entries. With
/// them, the search walks the lists in photo order together, keeps the photos in all of
/// them that pass the filters, adds their ranks or measures their distance, and keeps
/// only the page's best (`BestResults`): one pass, not a sort.
///
/// Nothing blocks, but a few queries cost milliseconds of CPU (a short prefix such as
/// `s` unites 2,000 words and 249,299 postings; a filter or a point on a phrase of
/// 40,000 photos walks all of them), so `searchOnEventLoop` declines those
/// (`eventLoopPostings`, `eventLoopWalk`, `eventLoopOffset`) and the route runs them on
/// a worker.
///
/// One per generation of the catalog: its postings are the shipped ones, corrected
/// (`SearchPostings.corrected(for:)`).
///
/// `Sendable`: the postings, the catalog and the ID order are immutable; the cache is
/// behind its locks.
public final class PhotoSearch: Sendable {
    /// The most postings a query may rank on an event loop (phrases not cached yet):
    /// ranking and ordering a phrase costs about 0.05 µs per posting on a quiet core
    /// (0.17 µs on the loaded one it was measured on), so about 1 ms.
    static let eventLoopPostings = 20_000
    /// The most photos a query with a filter or a point may walk on an event loop: about
    /// 0.15 µs each with a point (its distance) on the loaded machine, under 1 ms.
    static let eventLoopWalk = 10_000
    /// The deepest page start an event loop serves: the page is picked from a heap of
    /// every result before it, so a deep page costs a walk as deep.
    static let eventLoopOffset = 2_000

    private let catalog: PhotoCatalog
    private let postings: SearchPostings
    private let cache: PhraseCache
    /// Each photo's rank in `photoID` order (code points, i.e. UTF-8 bytes): breaks ties.
    private let photoIDRanks: [Int32]
    /// Each photo's location, and each location's borough, read in the hot loop.
    private let photoLocations: [Int32]
    private let locationBoroughs: [Borough?]

    /// - Parameters:
    ///   - shipped: the search index of the catalog `catalog` is a generation of.
    ///   - cachedBytes: bytes of phrase lists the phrase cache may hold.
    /// - Throws: `SearchPostingsError` when the shipped postings disagree with the catalog.
    public init(catalog: PhotoCatalog, shipped: ShippedSearchIndex, cachedBytes: Int = 64 << 20) throws {
        self.catalog = catalog
        postings = try shipped.postings.corrected(for: catalog)
        cache = PhraseCache(minimumCount: 256, capacity: cachedBytes)
        photoIDRanks = catalog.photos.indices.map { shipped.photoIDRanks[catalog.shippedPhotoIndex($0)] }
        photoLocations = catalog.photos.map { Int32($0.locationIndex) }
        locationBoroughs = catalog.locations.map(\.borough)
    }

    /// One page of the photos matching `query`, and how many match in all.
    public func search(_ query: SearchQuery) -> SearchPage {
        search(query, phrases: query.terms.phrases.map { matches($0) })
    }

    /// `search(query)`, or nil when it would cost more than an event loop may spend on
    /// one request: more than `eventLoopPostings` postings to rank (phrases not in the
    /// cache), a walk over more than `eventLoopWalk` photos (with a filter or a point),
    /// or a page starting past `eventLoopOffset`.
    public func searchOnEventLoop(_ query: SearchQuery) -> SearchPage? {
        guard query.offset <= Self.eventLoopOffset else { return nil }
        var phrases: [PhraseMatches?] = []
        var postingsToRank = 0
        for phrase in query.terms.phrases {
            let cached = cache.matches(for: phrase)
            if cached == nil { postingsToRank += postings.postingCount(postings.words(phrase)) }
            phrases.append(cached)
        }
        guard postingsToRank <= Self.eventLoopPostings else { return nil }
        let ranked = zip(query.terms.phrases, phrases).map { phrase, cached in cached ?? matches(phrase) }
        let walks = query.filter.borough != nil || query.filter.filtersPhotos || query.origin != nil
        if walks, let shortest = ranked.map(\.count).min(), shortest > Self.eventLoopWalk { return nil }
        return search(query, phrases: ranked)
    }

    private func search(_ query: SearchQuery, phrases: [PhraseMatches]) -> SearchPage {
        let filter = query.filter
        let origin = query.origin
        // An offset past every photo (a forged cursor) keeps everything and shows nothing.
        var best = BestResults(capacity: min(query.offset, catalog.photos.count) + query.limit)
        if filter.borough == nil, !filter.filtersPhotos, origin == nil {
            if phrases.count == 1 { return page(of: phrases[0], query: query) }
            return page(of: bestCommon(of: phrases, keeping: best), total: commonCount(phrases), query: query)
        }
        var total = 0
        forEachCommonPhoto(phrases) { photo, rank in
            let location = Int(photoLocations[Int(photo)])
            if let borough = filter.borough, locationBoroughs[location] != borough { return }
            if filter.filtersPhotos, !catalog.photo(Int(photo), matches: filter) { return }
            total += 1
            var order = rank
            if let origin {
                let point = catalog.locations[location]
                order = GreatCircle.distance(
                    latitude1: origin.latitude, longitude1: origin.longitude, latitude2: point.latitude,
                    longitude2: point.longitude)
            }
            best.offer(BestResults.Result(order: order, tie: photoIDRanks[Int(photo)], photo: photo))
        }
        return page(of: best, total: total, query: query)
    }

    private func page(of best: BestResults, total: Int, query: SearchQuery) -> SearchPage {
        let page = best.sorted().dropFirst(query.offset)
        let end = query.offset + page.count
        return SearchPage(
            total: total, photos: page.map { Int($0.photo) }, distances: query.origin == nil ? [] : page.map(\.order),
            nextOffset: end < total ? end : nil)
    }

    /// The page of a query of one phrase without filters: a slice of its list in result
    /// order, which is the order `BestResults` keeps (rank, then `photoID` rank).
    private func page(of phrase: PhraseMatches, query: SearchQuery) -> SearchPage {
        let start = min(query.offset, phrase.count)
        let end = min(start + query.limit, phrase.count)
        return SearchPage(
            total: phrase.count, photos: phrase.byRank[start..<end].map { Int(phrase.photos[Int($0)]) }, distances: [],
            nextOffset: end < phrase.count ? end : nil)
    }

    /// How many photos are in all of `phrases`: the members of the shortest list looked
    /// up in the others, or, when every list is long enough to have a bit set, the bit
    /// sets ANDed.
    private func commonCount(_ phrases: [PhraseMatches]) -> Int {
        guard let shortest = phrases.min(by: { $0.count < $1.count }) else { return 0 }
        if phrases.count == 1 { return shortest.count }
        if shortest.members.isEmpty {
            return shortest.photos.count { photo in phrases.allSatisfy { $0.contains(photo) } }
        }
        var total = 0
        for word in shortest.members.indices {
            var common = ~0 as UInt64
            for phrase in phrases { common &= phrase.members[word] }
            total += common.nonzeroBitCount
        }
        return total
    }

    /// `best` filled with the best photos in all of `phrases`, by the threshold algorithm
    /// (Fagin, Lotem and Naor, 2003): walk every list in rank order, one depth at a time;
    /// a photo met anywhere is looked up in the other lists and offered with its summed
    /// rank; no photo not yet met can rank better than the sum of the ranks at the current
    /// depth, so the walk stops once the kept results all rank strictly better than that.
    /// Ranks are added in phrase order, as `forEachCommonPhoto` adds them, so both paths
    /// give the same doubles; the sum is monotonic in each rank, so the bound holds.
    private func bestCommon(of phrases: [PhraseMatches], keeping best: BestResults) -> BestResults {
        var best = best
        guard let shortest = phrases.map(\.count).min() else { return best }
        var met = Set<Int32>()
        var positions = [Int](repeating: 0, count: phrases.count)
        for depth in 0..<shortest {
            var bound = 0.0
            for phrase in phrases.indices {
                let position = Int(phrases[phrase].byRank[depth])
                bound += phrases[phrase].ranks[position]
                let photo = phrases[phrase].photos[position]
                guard phrases.allSatisfy({ $0.contains(photo) }), met.insert(photo).inserted else { continue }
                for other in phrases.indices {
                    positions[other] =
                        other == phrase ? position : phrases[other].position(of: photo, from: 0)
                }
                var rank = 0.0
                for other in phrases.indices { rank += phrases[other].ranks[positions[other]] }
                best.offer(BestResults.Result(order: rank, tie: photoIDRanks[Int(photo)], photo: photo))
            }
            if best.isFull, let worst = best.worst, worst.order < bound { break }
        }
        return best
    }

    /// Calls `body` with every photo in all of `phrases` and the sum of its ranks, added
    /// in phrase order as `bm25()` adds them. The shortest list drives; the others are
    /// searched forward from where they were.
    private func forEachCommonPhoto(_ phrases: [PhraseMatches], _ body: (Int32, Double) -> Void) {
        guard let driver = phrases.indices.min(by: { phrases[$0].count < phrases[$1].count }) else { return }
        var positions = [Int](repeating: 0, count: phrases.count)
        candidates: for (index, photo) in phrases[driver].photos.enumerated() {
            positions[driver] = index
            for other in phrases.indices where other != driver {
                let position = phrases[other].position(of: photo, from: positions[other])
                positions[other] = position
                guard position < phrases[other].count else { break candidates }
                guard phrases[other].photos[position] == photo else { continue candidates }
            }
            var rank = 0.0
            for phrase in phrases.indices { rank += phrases[phrase].ranks[positions[phrase]] }
            body(photo, rank)
        }
    }

    /// The matches of one phrase: from the cache, else ranked now (then cached when many).
    private func matches(_ phrase: SearchPhrase) -> PhraseMatches {
        if let cached = cache.matches(for: phrase) { return cached }
        let ranked = postings.ranks(postings.words(phrase))
        let matches = PhraseMatches(
            photos: ranked.photos, ranks: ranked.ranks, tieRanks: photoIDRanks, photoCount: catalog.photos.count)
        cache.keep(matches, for: phrase)
        return matches
    }
}
