/// Member names in Stream-Safe Text Format (UAX #15 §13).
extension JSONReader {
    /// The most non-starters a member name may hold in a row (UAX #15 §13).
    static let maxNonStarters = 30

    /// Whether `name` holds no run of more than `maxNonStarters` non-starters: code points
    /// of a nonzero canonical combining class, the three Tibetan vowels that decompose
    /// into two of them (U+0F73, U+0F75, U+0F81) counting twice, as UAX #15 §13 counts.
    ///
    /// A Swift dictionary hashes a name in its normalized form (it compares strings by
    /// canonical equivalence), and normalizing sorts each run of combining marks in time
    /// that grows with the square of the run: one name of 16,000 alternating marks took
    /// 74 ms to hash. Runs of at most 30 keep hashing linear in the body; real text never
    /// comes near that (UAX #15 calls 30 far beyond any real need).
    static func isStreamSafe(_ name: String) -> Bool {
        var run = 0
        for scalar in name.unicodeScalars {
            switch scalar.value {
            case ..<0x300:
                // Nothing below the combining diacritical marks has a combining class.
                run = 0
            case 0xF73, 0xF75, 0xF81:
                run += 2
            default:
                run = scalar.properties.canonicalCombiningClass == .notReordered ? 0 : run + 1
            }
            if run > maxNonStarters { return false }
        }
        return true
    }
}
