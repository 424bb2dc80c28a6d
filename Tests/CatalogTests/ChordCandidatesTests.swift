@testable import Catalog
import Testing
import TestSupport

/// `ChordCandidates` keeps its entries in a lent buffer and moves them to the heap when
/// ties outgrow it. Checked against a plain sorted array that applies the same rule, on
/// random offers with many exact ties and buffers of one entry up, so the move happens
/// often and at every count.
@Suite struct ChordCandidatesTests {
    @Test func matchesASortedArrayAsTheBufferGrows() {
        var generator = SeededGenerator(seed: 20_261_124)
        for round in 0..<2_000 {
            let limit = Int.random(in: 1...12, using: &generator)
            let bufferSize = Int.random(in: 1...(limit + ChordCandidates.tieRoom), using: &generator)
            // Few distinct chords, so ties at the limit-th are common.
            let distinctChords = Int.random(in: 1...20, using: &generator)
            let chords = (0..<distinctChords).map { _ in Double.random(in: 0...0.01, using: &generator) }
            let offers = (0..<Int.random(in: 0...80, using: &generator)).map { _ in chords.randomElement(using: &generator)! }
            let chordBound = [3.0, 0.05, 0.08][round % 3]

            var twin = SortedTwin(limit: limit, chordBound: chordBound)
            let kept: [ChordCandidates.Entry] = withUnsafeTemporaryAllocation(
                of: ChordCandidates.Entry.self, capacity: bufferSize
            ) { buffer in
                var candidates = ChordCandidates(limit: limit, chordBound: chordBound, buffer: buffer)
                for (slot, chord) in offers.enumerated() {
                    let chordSquared = chord * chord
                    #expect(candidates.boundSquared == twin.boundSquared)
                    // The tree walk offers only what is within the bound.
                    guard chordSquared <= candidates.boundSquared else { continue }
                    candidates.insert(slot: slot, chordSquared: chordSquared)
                    twin.insert(slot: slot, chordSquared: chordSquared)
                }
                return Array(candidates.entries)
            }
            #expect(kept.map(\.slot) == twin.entries.map(\.slot), "round \(round)")
            #expect(kept.map(\.chordSquared) == twin.entries.map(\.chordSquared), "round \(round)")
        }
    }

    /// The rule spelled out on an array: insert after every entry with a chord not
    /// greater, then drop from the end whatever exceeds the bound the `limit`-th sets.
    private struct SortedTwin {
        var entries: [(slot: Int, chordSquared: Double)] = []
        let limit: Int
        var boundSquared: Double

        init(limit: Int, chordBound: Double) {
            self.limit = limit
            boundSquared = chordBound * chordBound
        }

        mutating func insert(slot: Int, chordSquared: Double) {
            let position = entries.firstIndex { $0.chordSquared > chordSquared } ?? entries.count
            entries.insert((slot, chordSquared), at: position)
            guard entries.count >= limit else { return }
            let bound = GreatCircle.chordBound(forChord: entries[limit - 1].chordSquared.squareRoot())
            boundSquared = min(boundSquared, bound * bound)
            entries.removeAll { $0.chordSquared > boundSquared }
        }
    }
}
