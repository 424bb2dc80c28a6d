/// The photos whose text holds one phrase (a word, or a prefix), in photo order, with
/// the phrase's `bm25()` rank in each: smaller is more relevant.
///
/// Besides the lists in photo order (what an intersection walks), it keeps them in
/// result order (`byRank`) and as a bit set of photos (`members`), so a search without
/// filters reads a page from the front of the lists and counts the photos common to
/// several phrases by a few hundred word ANDs, instead of walking every match
/// (`PhotoSearch`).
struct PhraseMatches: Sendable {
    /// Indices into `PhotoCatalog.photos`, ascending.
    let photos: [Int32]
    /// `ranks[i]` belongs to `photos[i]`.
    let ranks: [Double]
    /// Positions into `photos`, in result order: by rank, ties by the photo's `photoID` rank.
    let byRank: [Int32]
    /// Bit `p % 64` of word `p / 64` is set when photo `p` matches; empty for a phrase
    /// of fewer than one photo in 32, where the bit set would outweigh the list.
    let members: [UInt64]

    /// - Parameters:
    ///   - tieRanks: each photo's rank in `photoID` order, which breaks ties.
    ///   - photoCount: how many photos the catalog holds.
    init(photos: [Int32], ranks: [Double], tieRanks: [Int32], photoCount: Int) {
        self.photos = photos
        self.ranks = ranks
        byRank = photos.indices.map { Int32($0) }.sorted {
            let left = Int($0)
            let right = Int($1)
            return ranks[left] != ranks[right]
                ? ranks[left] < ranks[right] : tieRanks[Int(photos[left])] < tieRanks[Int(photos[right])]
        }
        let words = (photoCount + 63) / 64
        var members = [UInt64](repeating: 0, count: photos.count >= words * 2 ? words : 0)
        if !members.isEmpty {
            for photo in photos { members[Int(photo) >> 6] |= 1 << UInt64(photo & 63) }
        }
        self.members = members
    }

    var count: Int { photos.count }

    /// The bytes its lists hold, which the cache counts.
    var byteCount: Int { count * 16 + members.count * 8 }

    func contains(_ photo: Int32) -> Bool {
        if members.isEmpty {
            let position = position(of: photo, from: 0)
            return position < count && photos[position] == photo
        }
        return members[Int(photo) >> 6] & (1 << UInt64(photo & 63)) != 0
    }

    /// The first position at or after `start` whose photo is `>= photo`, found by
    /// galloping (doubling steps, then halving): cheap both for the next neighbour and
    /// for a long jump.
    func position(of photo: Int32, from start: Int) -> Int {
        var low = start
        var step = 1
        var high = start
        while high < photos.count, photos[high] < photo {
            low = high + 1
            high += step
            step *= 2
        }
        high = min(high, photos.count)
        while low < high {
            let middle = (low + high) / 2
            if photos[middle] < photo { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
