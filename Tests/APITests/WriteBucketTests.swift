@testable import API
import Testing
import TestSupport

/// The write bucket of `UserWriteLimiter` against its definition: with a full bucket of
/// `burst` writes at the start, refilled at `rate` a second, a write at `t` is admitted
/// exactly when the writes admitted in every interval `[s, t]` and it fit in `burst`
/// plus what the interval refilled (`s` the start or an admitted write's time).
@Suite struct WriteBucketTests {
    /// The greedy admission of that definition, by brute force, in nanoseconds of credit.
    struct Twin {
        let cost: UInt64
        let capacity: UInt64
        let start: UInt64
        var admitted: [UInt64] = []

        mutating func take(at time: UInt64) -> Bool {
            for from in [start] + admitted {
                let inInterval = UInt64(admitted.filter { $0 >= from }.count)
                if (inInterval + 1) * cost > capacity + (time - from) { return false }
            }
            admitted.append(time)
            return true
        }
    }

    @Test(arguments: [(1, 1), (50, 10), (3, 10), (7, 2)])
    func admitsExactlyWhatTheDefinitionAdmits(rate: Int, burstFactor: Int) {
        for seed in UInt64(1)...40 {
            var generator = SeededGenerator(seed: seed)
            let cost = 1_000_000_000 / UInt64(rate)
            let capacity = cost * UInt64(rate * burstFactor)
            let start: UInt64 = 5_000_000_000
            var bucket = WriteBucket(capacity: capacity, now: start)
            var twin = Twin(cost: cost, capacity: capacity, start: start)
            var time = start
            for write in 0..<300 {
                // Bursts of writes at one moment, and pauses up to a few seconds.
                if Int.random(in: 0..<4, using: &generator) == 0 {
                    time += UInt64.random(in: 0...(3 * cost * UInt64(burstFactor)), using: &generator)
                }
                let expected = twin.take(at: time)
                var trial = bucket
                let retryAfter = bucket.take(cost: cost, capacity: capacity, now: time)
                #expect((retryAfter == nil) == expected, "seed \(seed), write \(write)")
                if let retryAfter {
                    #expect(retryAfter >= 1)
                    // Waiting as told is enough.
                    let later = trial.take(cost: cost, capacity: capacity, now: time + UInt64(retryAfter) * 1_000_000_000)
                    #expect(later == nil)
                }
            }
        }
    }

    @Test func aBucketLeftAloneIsFullAgain() {
        var bucket = WriteBucket(capacity: 100, now: 0)
        #expect(bucket.isFull(capacity: 100, now: 0))
        let taken = bucket.take(cost: 10, capacity: 100, now: 0)
        #expect(taken == nil)
        #expect(!bucket.isFull(capacity: 100, now: 9))
        #expect(bucket.isFull(capacity: 100, now: 10))
        #expect(bucket.isFull(capacity: 100, now: 1_000))
    }
}
