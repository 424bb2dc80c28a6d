/// The photos whose text holds one phrase (a word, or a prefix), in photo order, with
/// the phrase's `bm25()` rank in each: smaller is more relevant.
struct PhraseMatches: Sendable {
    /// Indices into `PhotoCatalog.photos`, ascending.
    let photos: [Int32]
    /// `ranks[i]` belongs to `photos[i]`.
    let ranks: [Double]

    var count: Int { photos.count }

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
